package mutators

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// implementation_defined read backwards: what RFC 8259 leaves to implementations, found in the
// text. A call that holds one owes no verdict (Either), as the mutator's cases do.

// readImplementationDefined names the implementation-defined variant of b, if it has one.
func readImplementationDefined(b []byte) (Distortion, bool) {
	d := Distortion{Class: ImplementationDef, Keyword: ""}
	switch {
	case bytes.HasPrefix(b, []byte("\ufeff")):
		d.Variant = "byte-order-mark"
	case hasLoneSurrogate(b):
		d.Variant = "lone-surrogate"
	case nestingDepth(b) > jsonvalue.MaxDepth:
		d.Variant = "deep-nesting"
	case jsonvalue.Valid(b) && hasHugeNumber(b):
		d.Variant = "huge-number"
	case utf8.Valid(b) && json.Valid(b) && !jsonvalue.Valid(b):
		d.Variant = "duplicate-key" // grammatical, and Parse refuses only repeated keys then
	default:
		return d, false
	}
	return d, true
}

// hasLoneSurrogate reports whether b escapes a UTF-16 surrogate with no partner.
func hasLoneSurrogate(b []byte) bool {
	for i := 0; i+6 <= len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] != 'u' {
			i++ // an escaped character: skip it (\\u is not an escape of u)
			continue
		}
		r, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
		if err != nil {
			continue
		}
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
				if lo, err := strconv.ParseUint(string(b[i+8:i+12]), 16, 32); err == nil &&
					lo >= 0xDC00 && lo < 0xE000 {
					i += 11
					continue
				}
			}
			return true
		case r >= 0xDC00 && r < 0xE000:
			return true
		}
		i += 5
	}
	return false
}

// nestingDepth is the deepest nesting of brackets outside strings.
func nestingDepth(b []byte) int {
	depth, most := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
		case '{', '[':
			depth++
			most = max(most, depth)
		case '}', ']':
			depth--
		}
	}
	return most
}

// hasHugeNumber reports whether a number of b is beyond every float type: past the doubles (it
// reads as an infinity, or a non-zero one as zero), or with more significant digits than even
// decimal128 holds (34). b is JSON.
func hasHugeNumber(b []byte) bool {
	huge := false
	jsonvalue.NumberTokens(b, func(start, end int) bool {
		s := string(b[start:end])
		mant := strings.SplitN(strings.ToLower(s), "e", 2)[0]
		digits := strings.Trim(strings.NewReplacer("-", "", ".", "").Replace(mant), "0")
		f, _ := strconv.ParseFloat(s, 64)
		huge = math.IsInf(f, 0) || (f == 0 && digits != "") || len(digits) > 34
		return !huge
	})
	return huge
}
