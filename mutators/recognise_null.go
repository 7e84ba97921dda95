package mutators

import (
	"slices"

	"github.com/toolproof/toolproof/validator"
)

// null_value read backwards: null where the oracle reports a type (or enum, const, branch)
// issue.
func (nullValue) explain(r *reading, is validator.Issue, s *site) ([]Distortion, bool) {
	if s.value != nil || s.parent == nil || !slices.Contains(typeKeywords, is.Keyword) {
		return nil, false
	}
	d := Distortion{Class: NullValue, Variant: "null", Path: s.path, Keyword: is.Keyword}
	if s.takes("array") {
		d.Alike = []string{string(FlattenedArray) + ":unwrapped"} // [null] flattened writes the same
	}
	return []Distortion{d}, true
}
