package mutators

import "github.com/toolproof/toolproof/internal/jsonvalue"

// json_in_string read backwards: a string holding the JSON text of an object or array, where
// the schema does not take a string; undone by parsing it.
func (jsonInString) undo(r *reading, s *site) []undo {
	str, ok := s.value.(string)
	if !ok || s.parent == nil || s.onlyString() {
		return nil
	}
	inner, err := jsonvalue.Parse([]byte(str))
	if err != nil {
		return nil
	}
	switch inner.(type) {
	case map[string]any, []any:
		return []undo{{class: JSONInString, variant: "encoded", path: s.path, value: r.replace(s, inner)}}
	}
	return nil
}
