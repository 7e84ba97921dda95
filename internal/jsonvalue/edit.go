package jsonvalue

import (
	"encoding/json"
	"strconv"
)

// Replaced returns a copy of root with the value at the pointer tokens toks replaced by v:
// containers on the path are copied, the rest is shared, root is never changed.
func Replaced(root any, toks []string, v any) any {
	if len(toks) == 0 {
		return v
	}
	switch c := root.(type) {
	case map[string]any:
		m := make(map[string]any, len(c))
		for k, e := range c {
			m[k] = e
		}
		m[toks[0]] = Replaced(c[toks[0]], toks[1:], v)
		return m
	case []any:
		a := append([]any(nil), c...)
		i, _ := strconv.Atoi(toks[0])
		a[i] = Replaced(c[i], toks[1:], v)
		return a
	}
	return root
}

// ScalarTexts returns the items of a as text (strings as they are, numbers as written, booleans
// as true and false), and false when some item is not a string, number or boolean.
func ScalarTexts(a []any) ([]string, bool) {
	out := make([]string, 0, len(a))
	for _, e := range a {
		switch e := e.(type) {
		case string:
			out = append(out, e)
		case json.Number:
			out = append(out, string(e))
		case bool:
			out = append(out, strconv.FormatBool(e))
		default:
			return nil, false
		}
	}
	return out, true
}

// OtherTypes are values of other JSON types to put in place of v, one of them the text canary
// (the wrong_type distortions, which the audit probes too); never v written into a string or
// wrapped in an array, distortions with classes of their own.
func OtherTypes(v any, canary string) []any {
	switch v.(type) {
	case json.Number:
		return []any{true, map[string]any{"value": v}, canary}
	case string:
		return []any{json.Number("42"), true, map[string]any{"text": canary}}
	case bool:
		return []any{json.Number("1"), canary}
	case nil:
		return []any{json.Number("0"), canary, map[string]any{}}
	case []any:
		return []any{map[string]any{"items": v}, canary}
	case map[string]any:
		return []any{canary, json.Number("1"), true}
	}
	return nil
}
