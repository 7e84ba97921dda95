package mutators

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// missing_required: a required property left out.

type missing struct{}

func (missing) Class() corpus.Class { return MissingRequired }

func (missing) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	var places []*site
	for _, s := range tg.sites {
		if obj, ok := s.value.(map[string]any); ok {
			for _, r := range s.requiredNames() {
				if _, present := obj[r]; present {
					places = append(places, s)
					break
				}
			}
		}
	}
	return firstConfirmed(t, tg, MissingRequired, places, func(t *rapid.T, s *site) []candidate {
		obj := s.value.(map[string]any)
		var out []candidate
		for _, r := range s.requiredNames() {
			if _, present := obj[r]; !present {
				continue
			}
			out = append(out, candidate{
				build: func() any { return editedObject(tg.Value, s.tokens(), func(m map[string]any) { delete(m, r) }) },
				text:  tg.withoutKey(s, r),
				path:  s.path + "/" + jsonvalue.EscapeToken(r), variant: "omitted",
				keywords: []string{"required", "dependentRequired", "dependencies"},
				reason:   because("the required property %q left out of %s", r, describe(s)),
			})
		}
		return out
	})
}
