package oracle

import (
	"regexp"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/pattern"
)

// ecmaRegexp compiles a JSON Schema pattern (ECMA-262) with Go's RE2 after rewriting the ECMA
// escapes RE2 spells differently: \uXXXX (surrogate pairs joined) and \u{X...} become \x{...}.
// Patterns that mean something else in the two dialects are not rewritten; the tool loader
// warns about them. The compiled pattern's String is the RE2 form, which the generator reads.
func ecmaRegexp(src string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(pattern.ToRE2(src))
	if err != nil {
		return nil, err
	}
	return re, nil
}
