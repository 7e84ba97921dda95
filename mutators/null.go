package mutators

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
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
