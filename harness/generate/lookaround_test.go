package generate

import (
	"slices"
	"testing"
)

// The rewrites of a pattern for RE2 read it through one scanner: escapes, classes (with [] and
// [^] whole), groups and lookarounds alike in each.
func TestPatternRewrites(t *testing.T) {
	for _, tc := range []struct {
		src, base string
		ahead     []string
		backrefs  string
		classes   string
	}{
		{`^(?=.*[A-Z])(?=.*?\d)(?!.*\s)[a-z(]{3,}$`, `^[a-z(]{3,}$`, []string{"[A-Z]", "\\d"},
			`^(?=.*[A-Z])(?=.*?\d)(?!.*\s)[a-z(]{3,}$`,
			`^(?=.*[A-Z])(?=.*?\d)(?!.*\s)[a-z(]{3,}$`},
		{`(?<=a\))b(?<!c[)])d`, `bd`, []string(nil), `(?<=a\))b(?<!c[)])d`, `(?<=a\))b(?<!c[)])d`},
		{`[(?=x)]y`, `[(?=x)]y`, []string(nil), `[(?=x)]y`, `[(?=x)]y`},
		{`\(?=z\)`, `\(?=z\)`, []string(nil), `\(?=z\)`, `\(?=z\)`},
		{`(?=(a)b`, `(?=(a)b`, []string(nil), `(?=(a)b`, `(?=(a)b`},
		{`^(\w+)-\1$`, `^(\w+)-\1$`, []string(nil), `^(\w+)-(?:\w+)$`, `^(\w+)-\1$`},
		{`(?<year>\d{4})-\k<year>`, `(?<year>\d{4})-\k<year>`, []string(nil),
			`(?<year>\d{4})-(?:\d{4})`,
			`(?<year>\d{4})-\k<year>`},
		{`([a-z])[\1]\1`, `([a-z])[\1]\1`, []string(nil), `([a-z])[\1](?:[a-z])`, `([a-z])[\1]\1`},
		{`\k<nope>(x)\01\2`, `\k<nope>(x)\01\2`, []string(nil), `\k<nope>(x)\01\2`, `\k<nope>(x)\01\2`},
		{`((a)(b))\3\1`, `((a)(b))\3\1`, []string(nil), `((a)(b))(?:b)(?:(a)(b))`, `((a)(b))\3\1`},
		{`^\p{gc=Lu}\cJ?[^]$`, `^\p{gc=Lu}\cJ?[^]$`, []string(nil), `^\p{gc=Lu}\cJ?[^]$`, `^\p{Lu}\x{a}?[\s\S]$`},
		{`[\cA-\cZ][]][^]x\c1`, `[\cA-\cZ][]][^]x\c1`, []string(nil),
			`[\cA-\cZ][]][^]x\c1`,
			`[\x{1}-\x{1a}][^\s\S]][\s\S]x\c1`},
		{`\p{Script=Greek}\P{sc=Latin}\p{ASCII}\p{Alpha}`,
			`\p{Script=Greek}\P{sc=Latin}\p{ASCII}\p{Alpha}`, []string(nil),
			`\p{Script=Greek}\P{sc=Latin}\p{ASCII}\p{Alpha}`,
			`\p{Greek}\P{Latin}[\x00-\x7F][\p{L}\p{Nl}]`},
		{`[[]\]]`, `[[]\]]`, []string(nil), `[[]\]]`, `[[]\]]`},
		{`(?=[)]\))x`, `x`, []string{"[)]\\)"}, `(?=[)]\))x`, `(?=[)]\))x`},
		{`(?=a(?=b)c)d(?!e(f)g)h`, `dh`, []string{"a(?=b)c"}, `(?=a(?=b)c)d(?!e(f)g)h`, `(?=a(?=b)c)d(?!e(f)g)h`},
	} {
		base, ahead := withoutLookarounds(tc.src)
		if base != tc.base || !slices.Equal(ahead, tc.ahead) {
			t.Errorf("withoutLookarounds(%#q) = %#q, %q; want %#q, %q", tc.src, base, ahead, tc.base, tc.ahead)
		}
		if got := withGroupsForBackrefs(tc.src); got != tc.backrefs {
			t.Errorf("withGroupsForBackrefs(%#q) = %#q, want %#q", tc.src, got, tc.backrefs)
		}
		if got := ecmaClasses(tc.src); got != tc.classes {
			t.Errorf("ecmaClasses(%#q) = %#q, want %#q", tc.src, got, tc.classes)
		}
	}
}

// A pattern cut short (a trailing backslash or parenthesis, which the oracle's engine refuses
// before the generator sees it) is left as it is by every rewrite.
func TestPatternRewritesOfATruncatedPattern(t *testing.T) {
	for _, src := range []string{`a\`, `[a\`, `a(`, `(?<n`, `(a`} {
		if base, ahead := withoutLookarounds(src); base != src || ahead != nil {
			t.Errorf("withoutLookarounds(%#q) = %#q, %q", src, base, ahead)
		}
		if got := withGroupsForBackrefs(src); got != src {
			t.Errorf("withGroupsForBackrefs(%#q) = %#q", src, got)
		}
		if got := ecmaClasses(src); got != src {
			t.Errorf("ecmaClasses(%#q) = %#q", src, got)
		}
	}
}

// scan gives an escape, a whole [] or [^], and each other byte as one token, inside a class or not.
func TestScanner(t *testing.T) {
	var got []token
	sc := scanner{src: `a\][\]]([^][]b\`}
	for tk, ok := sc.scan(); ok; tk, ok = sc.scan() {
		got = append(got, tk)
	}
	want := []token{{0, "a", false}, {1, `\]`, false}, {3, "[", false}, {4, `\]`, true}, {6, "]", true},
		{7, "(", false},
		{8, "[^]", false}, {11, "[]", false}, {13, "b", false}, {14, `\`, false}}
	if !slices.Equal(got, want) {
		t.Errorf("tokens %+v\nwant   %+v", got, want)
	}
}
