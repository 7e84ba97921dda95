package pattern_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/internal/pattern"
)

// Patterns every dialect reads alike get no warning.
func TestPortablePatternsHaveNoProblem(t *testing.T) {
	for _, p := range []string{`^[a-z]+$`, `^\d{3}-\d{4}$`, `^(?:a|b)+$`, `^[\w.-]+@[\w-]+\.[a-z]{2,}$`,
		`\(\?i\)`, `^[^\]]*$`, `a+?b*?`, `^\s*$`, `^[\[\]]$`, `^(a)(b)$`, `^\\u0041$`, `^\\p$`, `[\d]`,
		`x{2,3}`, `^\$\{[A-Z_]+\}$`} {
		if got := pattern.Problems(p); len(got) > 0 {
			t.Errorf("%s: %q", p, got)
		}
	}
}

// Each dialect-only construct is named.
func TestDialectOnlySyntaxIsNamed(t *testing.T) {
	for p, want := range map[string]string{
		`(?i)^abc$`:          "inline flags",
		`^(?i:abc)$`:         "inline flags",
		`(?s).`:              "inline flags",
		`^(?P<year>\d{4})$`:  "(?P<name>",
		`^(?<year>\d{4})$`:   "Python's re rejects",
		`^(?=.*\d).{8,}$`:    "lookahead",
		`^(?!x)`:             "lookahead",
		`(?<=a)b`:            "lookahead and lookbehind",
		`(a)\1`:              "backreferences",
		`(?<n>a)\k<n>`:       "backreferences",
		`^\p{L}+$`:           `\p{...}`,
		`^\pL+$`:             `\pL`,
		`\Aabc\z`:            `\A, \z and \Z`,
		`abc\Z`:              `\A, \z and \Z`,
		`\Q.*\E`:             `\Q...\E`,
		`^\x{1F600}$`:        `\x{...}`,
		`^\u{1F600}$`:        `\u{...}`,
		`^[\u4e00-\u9fa5]+$`: `\uXXXX`,
		`\cJ`:                `\cX`,
		`^[[:alpha:]]+$`:     "POSIX",
		`^[]a]$`:             "[] and [^]",
		`^[^]$`:              "[] and [^]",
		`(?>a+)b`:            "atomic",
		`a++`:                "possessive",
		`(?#note)a`:          "comments",
		`a{2}+`:              "possessive",
		`[a-`:                "RE2 cannot compile",
	} {
		got := pattern.Problems(p)
		if len(got) == 0 || !strings.Contains(strings.Join(got, " | "), want) {
			t.Errorf("%s: want a problem with %q, got %q", p, want, got)
		}
	}
}

// A pattern gets one problem for one construct: "RE2 cannot compile it" only where no other
// problem says so already, and never for the \u escapes, which RE2 compiles once rewritten.
func TestOneProblemForOneConstruct(t *testing.T) {
	for p, want := range map[string][]string{
		`^(?=a)ab$`:          {"lookahead"},
		`(a)\1`:              {"backreferences"},
		`^[\u4e00-\u9fa5]+$`: {`\uXXXX`},
		`^\u{1F600}$`:        {`\u{...}`},
		`[a-`:                {"RE2 cannot compile"},
	} {
		got := pattern.Problems(p)
		if len(got) != len(want) {
			t.Errorf("%s: %d problems, want %d: %q", p, len(got), len(want), got)
			continue
		}
		for i := range want {
			if !strings.Contains(got[i], want[i]) {
				t.Errorf("%s: problem %d is %q, want one with %q", p, i, got[i], want[i])
			}
		}
	}
}

// Warnings finds the patterns of a schema and says where they are; values of enum, const,
// default and examples are data, not patterns; a property named like a keyword is a property.
func TestWarningsPointAtThePattern(t *testing.T) {
	schema := `{"type":"object","properties":{
		"a":{"type":"string","pattern":"(?i)^x$"},
		"enum":{"type":"string","pattern":"^\\p{Lu}"},
		"pattern":{"type":"string","pattern":"^ok$"},
		"d":{"default":{"pattern":"(?i)data"},"examples":[{"pattern":"(?i)data"}]},
		"n":{"type":"array","items":{"pattern":"a++"}}},
		"patternProperties":{"^(?P<k>x)_":{}, "^y_":{}}}`
	var got []string
	for _, w := range pattern.Warnings(json.RawMessage(schema)) {
		got = append(got, w.Pointer+" "+w.Pattern)
	}
	want := []string{"/patternProperties/^(?P<k>x)_ ^(?P<k>x)_", "/properties/a/pattern (?i)^x$",
		`/properties/enum/pattern ^\p{Lu}`, "/properties/n/items/pattern a++", "/properties/n/items/pattern a++"}
	// a++ has two problems: possessive, and RE2 cannot compile it.
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	w := pattern.Warnings(json.RawMessage(`{"properties":{"a":{"pattern":"(?i)x"}}}`))[0].String()
	if w != `pattern "(?i)x" at /properties/a/pattern: `+strings.SplitN(w, ": ", 2)[1] ||
		!strings.Contains(w, "ECMA-262") {
		t.Fatalf("String: %s", w)
	}
	if pattern.Warnings(json.RawMessage(`not json`)) != nil {
		t.Fatal("a schema that is not JSON has warnings")
	}
}

// The braces of an escape are not a quantifier: \p{L}+ is not possessive.
func TestEscapeBracesAreNotQuantifiers(t *testing.T) {
	for _, p := range []string{`^\p{L}+$`, `^\x{41}+$`, `(?<n>a)\k<n>+`} {
		for _, got := range pattern.Problems(p) {
			if strings.Contains(got, "possessive") {
				t.Errorf("%s: %s", p, got)
			}
		}
	}
}

func TestToRE2(t *testing.T) {
	for _, tc := range []struct{ ecma, re2 string }{
		{`^[\u4e00-\u9fa5]+$`, `^[\x{4E00}-\x{9FA5}]+$`},
		{`^\u{1F600}$`, `^\x{1F600}$`},
		{`^\uD83D\uDE00$`, `^\x{1F600}$`},
		{`^a\\u0041$`, `^a\\u0041$`},
		{`^\d{3}-\w+$`, `^\d{3}-\w+$`},
		{`^\u12$`, `^\u12$`},
	} {
		if got := pattern.ToRE2(tc.ecma); got != tc.re2 {
			t.Errorf("ToRE2(%s) = %s, want %s", tc.ecma, got, tc.re2)
		}
	}
}
