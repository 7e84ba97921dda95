package mutators

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
)

// null_value: null where null is not allowed.

type nullValue struct{}

func (nullValue) Class() corpus.Class { return NullValue }

func (nullValue) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	places := nonRoot(tg, func(s *site) bool { return s.value != nil && !s.mayBe("null") })
	return firstConfirmed(t, tg, NullValue, places, func(t *rapid.T, s *site) []candidate {
		return []candidate{{build: at(tg, s, nil), replaces: s, with: nil, path: s.path, variant: "null",
			keywords: typeKeywords, reason: because("null at %s, where the schema does not allow it", s.path)}}
	})
}
