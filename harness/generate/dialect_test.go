package generate_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// The shorthand classes and '.' as the other dialects a JSON Schema pattern runs in read them,
// written as RE2 classes: ECMA-262 with the u flag (Ajv, TypeBox) and Python's re
// (python-jsonschema). RE2, the oracle's dialect, is Go's regexp itself.
const (
	ecmaSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`
	pySpace   = `\t\n\v\f\r\x{1c}-\x{1f} \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`
)

var dialects = map[string]*strings.Replacer{
	"ecma-262": strings.NewReplacer(`\s`, "["+ecmaSpace+"]", `\S`, "[^"+ecmaSpace+"]",
		`\w`, `[0-9A-Za-z_]`, `\W`, `[^0-9A-Za-z_]`, `\d`, `[0-9]`, `\D`, `[^0-9]`, `.`, `[^\n\r\x{2028}\x{2029}]`),
	"python": strings.NewReplacer(`\s`, "["+pySpace+"]", `\S`, "[^"+pySpace+"]",
		`\w`, `[\p{L}\p{N}_]`, `\W`, `[^\p{L}\p{N}_]`, `\d`, `\p{Nd}`, `\D`, `\P{Nd}`, `.`, `[^\n]`),
}

// inDialect compiles pattern (shorthands and '.' only outside classes) as dialect reads it.
func inDialect(t *testing.T, dialect, pattern string) *regexp.Regexp {
	t.Helper()
	return regexp.MustCompile(dialects[dialect].Replace(pattern))
}

// The rewritten dialects tell what they should: strings RE2 matches that the others do not.
func TestDialectsDiffer(t *testing.T) {
	for _, c := range []struct{ dialect, pattern, s string }{
		{"python", `^\S+$`, "a\x1d"},
		{"python", `^\W+$`, "é"},
		{"python", `^\D+$`, "\u0663"},
		{"ecma-262", `^.+$`, "a\r"},
		{"ecma-262", `^.$`, "\u2028"},
		{"ecma-262", `^\S$`, "\ufeff"},
		{"python", `^\S$`, "\u0085"},
	} {
		if !regexp.MustCompile(c.pattern).MatchString(c.s) {
			t.Fatalf("RE2 %s does not match %q", c.pattern, c.s)
		}
		if inDialect(t, c.dialect, c.pattern).MatchString(c.s) {
			t.Errorf("%s %s matches %q: the rewrite does not model the dialect", c.dialect, c.pattern, c.s)
		}
	}
}

// A string generated for a pattern matches it in every dialect, not only in RE2: the runes a
// shorthand or '.' reads differently are not drawn, and astral runes (two UTF-16 units) are not
// drawn for classes or '.' either. Classes whose members all are such runes still generate.
func TestPatternStringsHoldInEveryDialect(t *testing.T) {
	for _, p := range []string{`^\S+$`, `^\s*x\s*$`, `^\W+$`, `^\w+$`, `^\D{2,}$`, `^\d+$`, `^.+$`,
		`^.{3}$`, `^[^a]+$`, `^\S\W.\D$`, `^[^,]+(,[^,]+)*$`, `x\s`, `^[^"]*$`} {
		pj, _ := json.Marshal(p)
		for _, schema := range []string{`{"type":"string","minLength":1,"pattern":` + string(pj) + `}`,
			`{"type":"object","patternProperties":{` + string(pj) +
				`:{}},"additionalProperties":false,"minProperties":1}`} {
			g, gk := newGen(t, schema)
			for _, v := range sampleValues(t, g, gk, 300) {
				var strs []string
				if s, ok := v.(string); ok {
					strs = append(strs, s)
				} else {
					for k := range v.(map[string]any) {
						strs = append(strs, k)
					}
				}
				for _, s := range strs {
					for d := range dialects {
						if !inDialect(t, d, p).MatchString(s) {
							t.Errorf("%s: generated %q, which %s does not match", p, s, d)
						}
					}
					for _, r := range s {
						if r > 0xffff {
							t.Errorf("%s: generated %q with an astral rune", p, s)
						}
					}
				}
			}
		}
	}
	for _, p := range []string{`^[\x1c-\x1f]+$`, `^[\u2000-\u200a]$`, `^[\r\u2028]$`, `^[\u{1F600}-\u{1F64F}]$`} {
		pj, _ := json.Marshal(p)
		g, gk := newGen(t, `{"type":"string","pattern":`+string(pj)+`}`)
		sampleValues(t, g, gk, 50)
	}
}
