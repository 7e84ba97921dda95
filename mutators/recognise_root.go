package mutators

import (
	"encoding/json"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// root_not_object read backwards: a root that is not an object is named by its shape; the
// arguments wrapped in an array or encoded into a string are unwrapped and read on.

// readRoot returns the arguments object of v and the root_not_object distortions around it;
// ok is false when there is no object to read on.
func readRoot(v any) (obj any, ds []Distortion, ok bool) {
	for range 4 {
		d := Distortion{Class: RootNotObject, Keyword: "type"}
		switch x := v.(type) {
		case map[string]any:
			return x, ds, true
		case []any:
			switch {
			case len(x) == 0:
				d.Variant = "empty-array"
			case len(x) == 1:
				d.Variant = "array"
				if _, isObj := x[0].(map[string]any); isObj {
					v = x[0]
					ds = append(ds, d)
					continue
				}
			default:
				d.Variant = "array"
			}
		case string:
			d.Variant = "string"
			if x == "" {
				d.Variant = "empty-string"
			} else if inner, err := jsonvalue.Parse([]byte(x)); err == nil {
				if _, isObj := inner.(map[string]any); isObj {
					d.Variant = "double-encoded"
					v = inner
					ds = append(ds, d)
					continue
				}
			}
		case nil:
			d.Variant = "null"
		case bool:
			d.Variant = "boolean"
		case json.Number:
			d.Variant = "number"
		}
		return nil, append(ds, d), false
	}
	return nil, ds, false
}

// readText parses a call's text: the value (parsed false when no repair gives one), the text's
// distortions, and why the call owes no verdict ("" when it owes one).
func readText(b []byte) (v any, parsed bool, ds []Distortion, either string) {
	if d, ok := readImplementationDefined(b); ok {
		return nil, false, []Distortion{d}, "RFC 8259 leaves " + d.Variant + " to implementations"
	}
	if v, err := jsonvalue.Parse(b); err == nil {
		return v, true, nil, ""
	}
	d, v, whole, _ := readMalformed(b)
	if !whole {
		return nil, false, []Distortion{d}, ""
	}
	return v, true, []Distortion{d}, ""
}
