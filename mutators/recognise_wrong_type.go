package mutators

import (
	"slices"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// wrapKeys are the one-member objects jsonvalue.OtherTypes puts a value in.
var wrapKeys = []string{"value", "text", "items"}

// wrong_type read backwards: a value put in a one-member object (jsonvalue.OtherTypes' objects) is
// taken out; any other value of a type the schema does not take is named by the types: the
// type wanted, then the type written ("number-to-boolean").
func (wrongType) undo(r *reading, s *site) []undo {
	obj, ok := s.value.(map[string]any)
	if !ok || len(obj) != 1 || s.parent == nil || s.takes("object") || s.takes("any") {
		return nil
	}
	for k, inner := range obj {
		if slices.Contains(wrapKeys, k) {
			return []undo{{class: WrongType, variant: jsonvalue.TypeName(inner) + "-to-object", path: s.path, value: r.replace(s, inner)}}
		}
	}
	return nil
}

func (wrongType) explain(r *reading, is validator.Issue, s *site) ([]Distortion, bool) {
	if s.parent == nil || !slices.Contains(typeKeywords, is.Keyword) {
		return nil, false
	}
	got := jsonvalue.TypeName(s.value)
	wanted := s.typeNames()
	if slices.Contains(wanted, got) {
		return nil, false // a value of a type the schema takes: a constraint broken (out_of_range_enum)
	}
	var variants []string
	for _, w := range wanted {
		variants = append(variants, w+"-to-"+got)
	}
	return []Distortion{{Class: WrongType, Variant: variants[0], Alike: variants[1:], Path: s.path, Keyword: is.Keyword}}, true
}
