package jsonvalue

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Marshal encodes v as compact JSON with object keys in sorted order, so the same value always
// gives the same bytes. Numbers are written as their json.Number text; HTML characters are not
// escaped. It accepts the value kinds Parse returns, plus Go numbers, []string and
// map[string]string for convenience.
func Marshal(v any) ([]byte, error) {
	return Append(nil, v)
}

// MustMarshal is Marshal for values known to be JSON values; it panics otherwise.
func MustMarshal(v any) []byte {
	b, err := Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Append appends the encoding of v to dst, as Marshal does.
func Append(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if v {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case json.Number:
		if !isNumber(string(v)) {
			return dst, fmt.Errorf("jsonvalue: %q is not a JSON number", string(v))
		}
		return append(dst, v...), nil
	case string:
		return AppendString(dst, v), nil
	case map[string]any:
		return appendObject(dst, v)
	case []any:
		return appendArray(dst, v)
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dst, fmt.Errorf("jsonvalue: %v is not a JSON number", v)
		}
		return strconv.AppendFloat(dst, v, 'g', -1, 64), nil
	case []string:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, e)
		}
		return append(dst, ']'), nil
	case map[string]string:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = e
		}
		return Append(dst, m)
	default:
		return dst, fmt.Errorf("jsonvalue: cannot encode %T", v)
	}
}

// appendObject appends the JSON text of v, its keys in order.
func appendObject(dst []byte, v map[string]any) ([]byte, error) {
	var small [16]string // most objects: no allocation for the keys
	keys := small[:0]
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		var err error
		if dst, err = Append(dst, v[k]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendArray appends the JSON text of v.
func appendArray(dst []byte, v []any) ([]byte, error) {
	dst = append(dst, '[')
	for i, e := range v {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = Append(dst, e); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Invalid UTF-8 is replaced by U+FFFD.
func AppendString(dst []byte, s string) []byte {
	out, _ := appendString(dst, s, false)
	return out
}

// AppendStringBytes appends b as a JSON string, escaped as AppendString escapes; ok is false
// when b is not valid UTF-8 (what was appended is then to be dropped).
func AppendStringBytes(dst, b []byte) (out []byte, ok bool) {
	// The string shares b's bytes for the length of the call, which only reads them.
	return appendString(dst, unsafe.String(unsafe.SliceData(b), len(b)), true)
}

// plain marks the bytes that stand for themselves in a JSON string: ASCII except control
// characters, '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// IsPlain reports whether the byte c stands for itself in a JSON string (ASCII but control
// characters, '"' and '\\'): the fast paths of other writers and readers ask it.
func IsPlain(c byte) bool { return plain[c] }

// appendString is the one JSON string writer: control characters, quotes and backslashes
// escaped, U+2028 and U+2029 too (line separators to some readers); invalid UTF-8 replaced by
// U+FFFD, or, when strict, the end (ok false).
func appendString(dst []byte, s string, strict bool) ([]byte, bool) {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		for i < len(s) && plain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if strict {
				return dst, false
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), true
}

func isNumber(s string) bool {
	end, msg := ScanNumber(s, 0)
	return msg == "" && end == len(s)
}

// RatText writes r exactly as a JSON number; r must have a terminating decimal expansion (every
// JSON number and their sums, products and halves have one).
func RatText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	for digits := 1; digits <= 400; digits++ {
		s := r.FloatString(digits)
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
			return s // the fewest digits that are exact: no trailing zero
		}
	}
	return r.FloatString(40)
}

// IsNumber reports whether s is a number under the JSON grammar.
func IsNumber(s string) bool { return isNumber(s) }

// Rat returns the exact value of a JSON number.
func Rat(n json.Number) (*big.Rat, bool) {
	r, ok := new(big.Rat).SetString(string(n))
	return r, ok
}

// IsInteger reports whether n has no fractional part (1.0 and 1e2 are integers).
func IsInteger(n json.Number) bool {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		return true
	}
	r, ok := Rat(n)
	return ok && r.IsInt()
}

// Equal reports whether a and b are the same JSON value: numbers compare by exact value (1.0
// equals 1), objects by their key sets, arrays element by element.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		if a == bn {
			return true
		}
		ra, ok1 := Rat(a)
		rb, ok2 := Rat(bn)
		return ok1 && ok2 && ra.Cmp(rb) == 0
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !Equal(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			w, ok := bm[k]
			if !ok || !Equal(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// Clone returns a deep copy of v. Go numbers (int, float64, ...) become json.Number, []string
// becomes []any; values of other types are rejected.
func Clone(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case json.Number:
		if !isNumber(string(v)) {
			return nil, fmt.Errorf("jsonvalue: %q is not a JSON number", string(v))
		}
		return v, nil
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			c, err := Clone(e)
			if err != nil {
				return nil, err
			}
			m[k] = c
		}
		return m, nil
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			c, err := Clone(e)
			if err != nil {
				return nil, err
			}
			a[i] = c
		}
		return a, nil
	case []string:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = e
		}
		return a, nil
	case int:
		return json.Number(strconv.Itoa(v)), nil
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("jsonvalue: %v is not a JSON number", v)
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), nil
	}
	return nil, fmt.Errorf("jsonvalue: cannot copy %T", v)
}

// MustClone is Clone for values known to be JSON values; it panics otherwise.
func MustClone(v any) any {
	c, err := Clone(v)
	if err != nil {
		panic(err)
	}
	return c
}

// TypeName is the JSON type of v: null, boolean, number, string, array or object.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, int, int64, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// Pointer joins reference tokens into a JSON Pointer (RFC 6901), escaping '~' as "~0" and '/'
// as "~1". No tokens is the empty pointer "", the whole document.
func Pointer(tokens []string) string {
	if len(tokens) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(EscapeToken(t))
	}
	return b.String()
}

// EscapeToken escapes one reference token for a JSON Pointer.
func EscapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(t)
}

// SplitPointer splits a JSON Pointer into its unescaped tokens.
func SplitPointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("jsonvalue: JSON Pointer %q does not start with '/'", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, t := range parts {
		if strings.Contains(t, "~") {
			t = strings.ReplaceAll(t, "~1", "/")
			t = strings.ReplaceAll(t, "~0", "~")
			parts[i] = t
		}
	}
	return parts, nil
}

// IsPrefix reports whether JSON Pointer anc is p itself or an ancestor of p.
func IsPrefix(anc, p string) bool {
	return anc == p || (strings.HasPrefix(p, anc) && p[len(anc)] == '/')
}

// Parent returns the JSON Pointer of p's parent ("" for top-level members and the root).
func Parent(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return ""
	}
	return p[:i]
}

// Get returns the value at JSON Pointer p inside v.
func Get(v any, p string) (any, bool) {
	toks, err := SplitPointer(p)
	if err != nil {
		return nil, false
	}
	for _, t := range toks {
		switch c := v.(type) {
		case map[string]any:
			e, ok := c[t]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) || strconv.Itoa(i) != t {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}
