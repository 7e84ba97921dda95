package mutators

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// json_in_string: an object or array JSON-encoded into a string.

type jsonInString struct{}

func (jsonInString) Class() corpus.Class { return JSONInString }

func (jsonInString) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	places := nonRoot(tg, func(s *site) bool {
		switch s.value.(type) {
		case []any, map[string]any:
			return !s.mayBe("string")
		}
		return false
	})
	return firstConfirmed(t, tg, JSONInString, places, func(t *rapid.T, s *site) []candidate {
		encoded := string(tg.Text[s.start:s.end])
		return []candidate{{build: func() any { return jsonvalue.Replaced(tg.Value, s.tokens(), encoded) }, replaces: s, with: encoded,
			path: s.path, variant: "encoded", keywords: typeKeywords,
			reason: because("the %s at %s JSON-encoded into a string", jsonvalue.TypeName(s.value), s.path)}}
	})
}
