package generate_test

import (
	"encoding/json"
	"regexp"
	"testing"
)

// Patterns in ECMA-262 syntax RE2 lacks (lookahead, lookbehind, backreferences) generate
// strings that match them, as the oracle's engine judges; the values are checked for what each
// pattern wants by a second reading here.
func TestECMAPatternsGenerate(t *testing.T) {
	for _, c := range []struct {
		pattern string
		holds   func(string) bool
	}{
		{`^(?=.*[0-9]).{8,}$`, regexp.MustCompile(`[0-9]`).MatchString},
		{`^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)[A-Za-z\d]{8,16}$`, func(s string) bool {
			return regexp.MustCompile(`[A-Z]`).MatchString(s) && regexp.MustCompile(`[a-z]`).MatchString(s) &&
				regexp.MustCompile(`^[A-Za-z0-9]{8,16}$`).MatchString(s)
		}},
		{`^(?!admin$)[a-z]{3,8}$`, func(s string) bool { return s != "admin" }},
		{`^[a-z]+(?<!_)$`, regexp.MustCompile(`^[a-z]+$`).MatchString},
		{`^(["'])[a-z]*\1$`, func(s string) bool { return len(s) >= 2 && s[0] == s[len(s)-1] }},
		{`^(?<q>[ab])-\k<q>$`, func(s string) bool { return len(s) == 3 && s[0] == s[2] }},
		{`^\p{Script=Greek}+$`, regexp.MustCompile(`^\p{Greek}+$`).MatchString},
		{`^\p{gc=Lu}\cJ?[^]$`, regexp.MustCompile(`^\p{Lu}\n?(?s:.)$`).MatchString},
		{`^\p{ASCII}{2,}\p{Uppercase}$`, regexp.MustCompile(`^[\x00-\x7f]{2,}\p{Lu}$`).MatchString},
	} {
		pj, _ := json.Marshal(c.pattern)
		g, gk := newGen(t, `{"type":"string","pattern":`+string(pj)+`}`)
		for _, v := range sampleValues(t, g, gk, 100) {
			if s := v.(string); !c.holds(s) {
				t.Errorf("%s: generated %q", c.pattern, s)
			}
		}
	}
}
