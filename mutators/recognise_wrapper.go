package mutators

import (
	"slices"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// wrapper_nesting read backwards: a root object whose one member, named as the mutator names
// wrappers, holds the arguments; undone by taking them out.
func (wrapperNesting) undo(r *reading, s *site) []undo {
	obj, ok := s.value.(map[string]any)
	if s.parent != nil || !ok || len(obj) != 1 {
		return nil
	}
	for k, inner := range obj {
		if _, isObj := inner.(map[string]any); isObj && slices.Contains(wrapperKeys, k) {
			u := undo{class: WrapperNesting, variant: k, path: "", value: func() any { return inner }}
			if !s.declared()[k] {
				// Where the arguments may be empty, the wrapper key taken out reads as well.
				v, _ := r.keyVariant(k, s.declared())
				u.alike = []string{string(HallucinatedKey) + ":" + v + "@/" + jsonvalue.EscapeToken(k)}
			}
			return []undo{u}
		}
	}
	return nil
}
