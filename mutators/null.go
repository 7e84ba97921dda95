package mutators

import (
	"slices"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/validator"
)

// null_value: null where null is not allowed.

// NullValue is the class of null where null is not allowed.
const NullValue corpus.Class = "null_value"

func nullClass() Definition {
	return Definition{Name: NullValue, Mutator: nullValue{}, Doc: "null where null is not allowed",
		recognise: recogniser{explain: nullValue{}, explainRank: 2},
		Audit:     AuditHints{Analyse: nullHints, Probe: nullProbe}}
}

type nullValue struct{}

func (nullValue) Class() corpus.Class { return NullValue }

func (nullValue) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	places := nonRoot(tg, func(s *site) bool { return s.value != nil && !s.mayBe("null") })
	return firstConfirmed(t, tg, NullValue, places, func(t *rapid.T, s *site) []candidate {
		return []candidate{{build: at(tg, s, nil), replaces: s, with: nil, path: s.path, variant: "null",
			keywords: typeKeywords, reason: because("null at %s, where the schema does not allow it", s.path)}}
	})
}

// nullHints: a place below the root catches null unless it takes null.
func nullHints(p *SchemaPlace) []Hint {
	switch {
	case p.Root:
		return nil
	case p.May("null"):
		return passing("%s is %s: null passes", p.Where, p.Desc)
	}
	return caught("%s is %s: null is rejected", p.Where, p.Desc)
}

// nullProbe puts null in place of the value.
func nullProbe(p *Probe) {
	if p.X != nil {
		p.Put("null", nil, "null at %s in place of the %s", p.Path, p.Type)
	}
}

// null_value read backwards: null where the oracle reports a type (or enum, const, branch)
// issue.
func (nullValue) explain(r *undoing, is validator.Issue, s *site) ([]Distortion, bool) {
	if s.value != nil || s.parent == nil || !slices.Contains(typeKeywords, is.Keyword) {
		return nil, false
	}
	d := Distortion{Class: NullValue, Variant: "null", Path: s.path, Keyword: is.Keyword}
	if s.takes("array") {
		d.Alike = []string{string(FlattenedArray) + ":unwrapped"} // [null] flattened writes the same
	}
	return []Distortion{d}, true
}
