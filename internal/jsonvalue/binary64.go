package jsonvalue

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
)

// Binary64 returns the exact value of the IEEE binary64 number nearest to n, written as a JSON
// number, as a gate that reads JSON numbers into doubles sees it. ok is false when n is beyond
// every double (it would read as an infinity).
func Binary64(n json.Number) (json.Number, bool) {
	s := string(n)
	if smallInteger(s) || smallInteger(wholePart(s)) {
		return n, true // |n| < 10^15 and whole: a double holds it exactly
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeUnderflow(f, err) {
		return "", false
	}
	if math.IsInf(f, 0) {
		return "", false
	}
	return json.Number(exactDouble(f)), true
}

// isRangeUnderflow tells a number too small for a double (read as 0 or a subnormal, a
// well-defined double) from one too large.
func isRangeUnderflow(f float64, err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange && !math.IsInf(f, 0)
}

// exactDouble writes the exact decimal value of f: a double is a dyadic rational, so its
// expansion ends after as many digits as its denominator has factors of two.
func exactDouble(f float64) string {
	if f == 0 {
		return "0"
	}
	r := new(big.Rat).SetFloat64(f)
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(r.Denom().BitLen() - 1)
}

// wholePart is s without a fraction of zeros ("-53.000" gives "-53"), or "" when s has another
// fraction or an exponent.
func wholePart[T text](s T) T {
	dot := -1
	for i := 0; i < len(s) && dot < 0; i++ {
		if s[i] == '.' {
			dot = i
		}
	}
	if dot < 0 {
		return s[:0]
	}
	for i := dot + 1; i < len(s); i++ {
		if s[i] != '0' {
			return s[:0]
		}
	}
	return s[:dot]
}

// text is a number's text, as a string or as bytes.
type text interface{ ~string | ~[]byte }

func smallInteger[T text](s T) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// fewDigits reports whether the JSON number s has at most 15 significant digits and a
// magnitude well inside the normal doubles. Such a number reads back from its nearest double
// (DBL_DIG is 15): two decimals of 15 digits are further apart than two neighbouring doubles,
// so the shortest decimal of that double has the value of s.
func fewDigits[T text](s T) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	sig, frac := 0, 0
	leading, inFrac := true, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if inFrac {
				frac++
			}
			if leading && c == '0' {
				continue
			}
			leading = false
			sig++
		case c == '.':
			inFrac = true
		case c == 'e' || c == 'E':
			exp, ok := smallExponent(s[i+1:])
			if !ok {
				return false
			}
			return sig <= 15 && exp-frac >= -290 && exp-frac <= 290
		default:
			return false
		}
	}
	return sig <= 15 && frac <= 290
}

// smallExponent reads the exponent of a JSON number (after the e) when it has at most four
// digits.
func smallExponent[T text](s T) (int, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 4 {
		return 0, false
	}
	e := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		e = e*10 + int(s[i]-'0')
	}
	if neg {
		e = -e
	}
	return e, true
}

// Shortest64 returns the shortest decimal that reads as the same double as n (what
// strconv.FormatFloat writes). Distinct doubles keep their order, equality and integer-ness in
// it, so it stands for the double wherever numbers are only compared; not for multipleOf. ok is
// false when n is beyond every double.
func Shortest64(n json.Number) (json.Number, bool) {
	s := string(n)
	if smallInteger(s) || fewDigits(s) {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if (err != nil && !isRangeUnderflow(f, err)) || math.IsInf(f, 0) {
		return "", false
	}
	short := strconv.FormatFloat(f, 'g', -1, 64)
	if short != s {
		// Another spelling of the same value (1.0 for 1, 1e2 for 100) reads the same.
		a, okA := new(big.Rat).SetString(s)
		b, okB := new(big.Rat).SetString(short)
		if okA && okB && a.Cmp(b) == 0 {
			return n, true
		}
	}
	return json.Number(short), true
}

// Shortest64Keeps reports, without parsing, that Shortest64 gives the number s back as it is:
// an integer of at most 15 digits, or a number with at most 15 significant digits well inside
// the normal doubles. False says nothing.
func Shortest64Keeps(s []byte) bool { return smallInteger(s) || fewDigits(s) }

// Binary64Keeps reports, without parsing, that Binary64 gives the number s back as it is: a
// whole number of at most 15 digits. False says nothing.
func Binary64Keeps(s []byte) bool { return smallInteger(s) || smallInteger(wholePart(s)) }

// NumberTokens calls fn with where each number of the JSON text b starts and ends, in order,
// and stops when fn returns false. b must be valid JSON: strings are skipped, and whatever else starts with '-'
// or a digit is a number.
func NumberTokens(b []byte, fn func(start, end int) bool) {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			// To the closing quote: the first quote after i that no odd run of backslashes
			// escapes.
			for {
				q := bytes.IndexByte(b[i+1:], '"')
				if q < 0 {
					return
				}
				i += 1 + q
				n := 0
				for n < i && b[i-1-n] == '\\' {
					n++
				}
				if n%2 == 0 {
					break
				}
			}
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(b) && numberByte(b[j]) {
				j++
			}
			if !fn(i, j) {
				return
			}
			i = j - 1
		}
	}
}

// numberByte reports whether c may follow the first byte of a JSON number.
func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// RoundBinary64 returns v with every number replaced by Binary64 of it (v itself, shared, when
// no number changes), and false when some number is beyond every double.
func RoundBinary64(v any) (any, bool) {
	r, _, ok := Round(v, Binary64)
	return r, ok
}

// Round returns v with every number n replaced by round(n), whether anything changed (unchanged
// parts are shared with v), and false when round fails for some number.
func Round(v any, round func(json.Number) (json.Number, bool)) (any, bool, bool) {
	return round64(v, round)
}

func round64(v any, round func(json.Number) (json.Number, bool)) (any, bool, bool) {
	switch x := v.(type) {
	case json.Number:
		r, ok := round(x)
		return r, ok && r != x, ok
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			r, changed, ok := round64(e, round)
			if !ok {
				return nil, false, false
			}
			if changed {
				if out == nil {
					out = make(map[string]any, len(x))
					for k2, e2 := range x {
						out[k2] = e2
					}
				}
				out[k] = r
			}
		}
		if out == nil {
			return x, false, true
		}
		return out, true, true
	case []any:
		var out []any
		for i, e := range x {
			r, changed, ok := round64(e, round)
			if !ok {
				return nil, false, false
			}
			if changed && out == nil {
				out = append(make([]any, 0, len(x)), x[:i]...)
			}
			if out != nil {
				out = append(out, r)
			}
		}
		if out == nil {
			return x, false, true
		}
		return out, true, true
	}
	return v, false, true
}

// Numbers calls fn for every number in v.
func Numbers(v any, fn func(json.Number)) {
	switch x := v.(type) {
	case json.Number:
		fn(x)
	case map[string]any:
		for _, e := range x {
			Numbers(e, fn)
		}
	case []any:
		for _, e := range x {
			Numbers(e, fn)
		}
	}
}
