package mutators

import (
	"encoding/json"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// wrong_type: a value of another JSON type (not the string or array forms, which have
// classes of their own).

var typeKeywords = []string{"type", "enum", "const", "anyOf", "oneOf", "not", "false"}

type wrongType struct{}

// WrongTypeForms are the values of other JSON types that wrong_type puts in place of v (the
// audit probes the same), one of them the canary text.
func WrongTypeForms(v any, canary string) []any {
	switch v.(type) {
	case json.Number:
		return []any{true, map[string]any{"value": v}, canary}
	case string:
		return []any{json.Number("42"), true, map[string]any{"text": canary}}
	case bool:
		return []any{json.Number("1"), canary}
	case nil:
		return []any{json.Number("0"), canary, map[string]any{}}
	case []any:
		return []any{map[string]any{"items": v}, canary}
	case map[string]any:
		return []any{canary, json.Number("1"), true}
	}
	return nil
}

func (wrongType) Class() cases.Class { return WrongType }

func (wrongType) Mutate(t *rapid.T, tg *Target) (cases.Case, bool) {
	places := nonRoot(tg, func(s *site) bool { return s.types().known() || s.enum() != nil })
	return firstConfirmed(t, tg, WrongType, places, func(t *rapid.T, s *site) []candidate {
		c := canary(t)
		forms := WrongTypeForms(s.value, c)
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
