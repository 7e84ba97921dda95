package validator

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ecmaRegexp compiles a JSON Schema pattern (ECMA-262) with Go's RE2 after rewriting the ECMA
// escapes RE2 spells differently: \uXXXX (surrogate pairs joined) and \u{X...} become \x{...}.
// Patterns that mean something else in the two dialects are not rewritten; the tool loader
// warns about them. The compiled pattern's String is the RE2 form, which the generator reads.
func ecmaRegexp(src string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(ecmaToRE2(src))
	if err != nil {
		return nil, err
	}
	return re, nil
}

// ecmaToRE2 rewrites the \u escapes of an ECMA-262 pattern as RE2 \x{...} escapes.
func ecmaToRE2(src string) string {
	if !strings.Contains(src, `\u`) {
		return src
	}
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\\' || i+1 >= len(src) {
			b.WriteByte(c)
			continue
		}
		if src[i+1] != 'u' {
			b.WriteByte(c)
			b.WriteByte(src[i+1]) // any other escape, kept as it is (an escaped backslash too)
			i++
			continue
		}
		// \u{X...}
		if i+2 < len(src) && src[i+2] == '{' {
			if end := strings.IndexByte(src[i+3:], '}'); end > 0 {
				if _, err := strconv.ParseUint(src[i+3:i+3+end], 16, 32); err == nil {
					fmt.Fprintf(&b, `\x{%s}`, src[i+3:i+3+end])
					i += 3 + end
					continue
				}
			}
		}
		// \uXXXX, and a surrogate pair \uD83D\uDE00 as one code point.
		if r, ok := hex4(src, i+2); ok {
			if utf16.IsSurrogate(rune(r)) && strings.HasPrefix(src[i+6:], `\u`) {
				if r2, ok := hex4(src, i+8); ok {
					if cp := utf16.DecodeRune(rune(r), rune(r2)); cp != '\uFFFD' {
						fmt.Fprintf(&b, `\x{%X}`, cp)
						i += 11
						continue
					}
				}
			}
			fmt.Fprintf(&b, `\x{%04X}`, r)
			i += 5
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// hex4 reads four hex digits at src[i:].
func hex4(src string, i int) (uint64, bool) {
	if i+4 > len(src) {
		return 0, false
	}
	v, err := strconv.ParseUint(src[i:i+4], 16, 32)
	return v, err == nil
}
