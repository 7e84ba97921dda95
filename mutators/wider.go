package mutators

import (
	"encoding/json"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

var typeKeywords = []string{"type", "enum", "const", "anyOf", "oneOf", "not", "false"}

// ---- missing_required: a required property left out.

type missing struct{}

func (missing) Class() cases.Class { return MissingRequired }

func (missing) Mutate(t *rapid.T, tg *Target) (cases.Case, bool) {
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

// ---- null_value: null where null is not allowed.

type nullValue struct{}

func (nullValue) Class() cases.Class { return NullValue }

func (nullValue) Mutate(t *rapid.T, tg *Target) (cases.Case, bool) {
	places := nonRoot(tg, func(s *site) bool { return s.value != nil && !s.mayBe("null") })
	return firstConfirmed(t, tg, NullValue, places, func(t *rapid.T, s *site) []candidate {
		return []candidate{{build: at(tg, s, nil), replaces: s, with: nil, path: s.path, variant: "null",
			keywords: typeKeywords, reason: because("null at %s, where the schema does not allow it", s.path)}}
	})
}

// ---- wrong_type: a value of another JSON type (not the string or array forms, which have
// classes of their own).

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

// ---- json_in_string: an object or array JSON-encoded into a string.

type jsonInString struct{}

func (jsonInString) Class() cases.Class { return JSONInString }

func (jsonInString) Mutate(t *rapid.T, tg *Target) (cases.Case, bool) {
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

// ---- wrapped_scalar: x written as [x].

type wrappedScalar struct{}

func (wrappedScalar) Class() cases.Class { return WrappedScalar }

func (wrappedScalar) Mutate(t *rapid.T, tg *Target) (cases.Case, bool) {
	places := nonRoot(tg, func(s *site) bool {
		switch s.value.(type) {
		case []any, map[string]any:
			return false
		}
		return !s.mayBe("array")
	})
	return firstConfirmed(t, tg, WrappedScalar, places, func(t *rapid.T, s *site) []candidate {
		return []candidate{{build: at(tg, s, []any{s.value}), replaces: s, with: []any{s.value}, path: s.path, variant: "wrapped",
			keywords: typeKeywords, reason: because("the %s at %s wrapped in an array", jsonvalue.TypeName(s.value), s.path)}}
	})
}

// ---- wrapper_nesting: the arguments nested in an envelope, {"arguments": {...}}.

type wrapperNesting struct{}

func (wrapperNesting) Class() cases.Class { return WrapperNesting }

var wrapperKeys = []string{"arguments", "parameters", "input", "args", "params", "kwargs"}

func (wrapperNesting) Mutate(t *rapid.T, tg *Target) (cases.Case, bool) {
	root := tg.sites[:1]
	return firstConfirmed(t, tg, WrapperNesting, root, func(t *rapid.T, s *site) []candidate {
		var out []candidate
		for _, k := range wrapperKeys {
			k := k
			out = append(out, candidate{build: func() any { return map[string]any{k: tg.Value} }, text: tg.wrapped(k), path: "", variant: k,
				keywords: structuralKeywords, below: true, reason: because("the arguments nested under %q", k)})
		}
		return out
	})
}
