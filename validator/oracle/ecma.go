package oracle

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

// MaxBacktrack is the bound of the oracle's regex engine on one match: the backtracking stack
// slots it may use (regexp2's MaxBacktrackingStackSize). It counts the match's own memory, never
// the clock, so a match that exceeds it does so on every run.
const MaxBacktrack = 100000

// LastResort is the wall-clock bound on one match, for what MaxBacktrack cannot bound: the
// exponential time of nested quantifiers on a near miss (^(a+)+$ on 30 a's and a b). Only such a
// pattern reaches it, and then its answer depends on the machine.
const LastResort = 5 * time.Second

// ecmaRegexp compiles a JSON Schema pattern as the ECMA-262 regular expression JSON Schema says
// it is, with the u flag (as Ajv compiles it): regexp2 in its ECMAScript and Unicode modes, so
// lookahead, lookbehind, backreferences and \u{...} mean what they mean to a JavaScript gate.
// Its String is the pattern's source.
func ecmaRegexp(src string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(src, regexp2.ECMAScript|regexp2.Unicode,
		regexp2.OptionMaxBacktrackingStackSize(MaxBacktrack))
	if err != nil {
		return nil, fmt.Errorf("not an ECMA-262 regular expression: %v", err)
	}
	re.MatchTimeout = LastResort
	return ecmaPattern{re}, nil
}

// ecmaPattern is a compiled pattern.
type ecmaPattern struct{ re *regexp2.Regexp }

// MatchString reports whether s holds a match. A match the engine gives up on (beyond
// MaxBacktrack, or LastResort) counts as a match: the oracle never proves a value invalid by a pattern it
// could not decide, and never draws a value it could not decide as invalid.
func (p ecmaPattern) MatchString(s string) bool {
	ok, err := p.re.MatchString(s)
	return ok || err != nil
}

func (p ecmaPattern) String() string { return p.re.String() }

// badPattern names the first pattern of the schema document doc (a "pattern" string or a
// patternProperties key, in document order) that is not an ECMA-262 regular expression, with
// where it is and why; "" when every one compiles.
func badPattern(doc any) string {
	bad := ""
	try := func(src, at string) {
		if _, err := ecmaRegexp(src); err != nil && bad == "" {
			bad = fmt.Sprintf("pattern %q at %s: %v (the oracle reads patterns as ECMA-262 with the u flag, as Ajv "+
				"does)", src, at, err)
		}
	}
	schemawalk.Keywords(doc, func(_ map[string]any, k string, x any, at *schemawalk.Path) bool {
		switch m := x.(type) {
		case string:
			if k == "pattern" {
				try(m, at.String())
			}
		case map[string]any:
			if k == "patternProperties" {
				for _, pk := range slices.Sorted(maps.Keys(m)) {
					try(pk, at.String()+"/"+jsonvalue.EscapeToken(pk))
				}
			}
		}
		return bad == ""
	})
	return bad
}
