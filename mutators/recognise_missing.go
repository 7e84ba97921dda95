package mutators

import (
	"sort"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// missing_required read backwards: a required (or dependent-required) property an object lacks,
// named at the place it should be.
func (missing) explain(r *reading, is validator.Issue, s *site) ([]Distortion, bool) {
	obj, ok := s.value.(map[string]any)
	if !ok || (is.Keyword != "required" && is.Keyword != "dependentRequired" && is.Keyword != "dependencies") {
		return nil, false
	}
	want := map[string]bool{}
	for _, k := range s.requiredNames() {
		want[k] = true
	}
	for _, sch := range s.schemas {
		for k, deps := range sch.DependentRequired {
			if _, present := obj[k]; present {
				for _, d := range deps {
					want[d] = true
				}
			}
		}
	}
	var out []Distortion
	for k := range want {
		p := s.path + "/" + jsonvalue.EscapeToken(k)
		if _, present := obj[k]; !present && (is.Path == s.path || is.Path == p) {
			out = append(out, Distortion{Class: MissingRequired, Variant: "omitted",
				Path: p, Keyword: is.Keyword})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, len(out) > 0
}
