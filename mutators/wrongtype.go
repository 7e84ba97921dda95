package mutators

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// wrong_type: a value of another JSON type (not the string or array forms, which have
// classes of their own).

var typeKeywords = []string{"type", "enum", "const", "anyOf", "oneOf", "not", "false"}

type wrongType struct{}

func (wrongType) Class() corpus.Class { return WrongType }

func (wrongType) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	places := nonRoot(tg, func(s *site) bool { return s.types().known() || s.enum() != nil })
	return firstConfirmed(t, tg, WrongType, places, func(t *rapid.T, s *site) []candidate {
		c := canary(t)
		forms := jsonvalue.OtherTypes(s.value, c)
		var out []candidate
		for _, f := range forms {
			cn := ""
			if f == c {
				cn = c
			}
			out = append(out, candidate{build: at(tg, s, f), replaces: s, with: f, path: s.path,
				variant:  jsonvalue.TypeName(s.value) + "-to-" + jsonvalue.TypeName(f),
				keywords: typeKeywords, canary: cn,
				reason: because("%s at %s where the schema wants %s", aType(f), s.path, aType(s.value))})
		}
		return out
	})
}

// aType names the JSON type of v with its article: "an object", "a number".
func aType(v any) string {
	switch n := jsonvalue.TypeName(v); n {
	case "object", "array", "integer":
		return "an " + n
	default:
		return "a " + n
	}
}
