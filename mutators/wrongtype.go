package mutators

import (
	"slices"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// wrong_type: a value of another JSON type (not the string or array forms, which have
// classes of their own).

var typeKeywords = []string{"type", "enum", "const", "anyOf", "oneOf", "not", "false"}

// WrongType is the class of a value of another JSON type.
const WrongType corpus.Class = "wrong_type"

func wrongTypeClass() Definition {
	return Definition{Name: WrongType, Mutator: wrongType{},
		Doc:       "a value of another type (a boolean for a number, an object for a string, ...)",
		recognise: recogniser{undo: wrongType{}, undoRank: 5, explain: wrongType{}, explainRank: 4},
		Audit:     AuditHints{Analyse: wrongTypeHints, Probe: wrongTypeProbe}}
}

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

// wrongTypeHints: a typed place below the root catches a value of another type; an untyped one
// lets any type through.
func wrongTypeHints(p *SchemaPlace) []Hint {
	switch {
	case p.Root:
		return nil
	case p.Types == nil:
		return passing("%s has no type: a value of any type passes", p.Where)
	}
	return caught("%s is %s: other types are rejected", p.Where, p.Desc)
}

// wrongTypeProbe puts a value of each other JSON type in place of the value.
func wrongTypeProbe(p *Probe) {
	for _, f := range jsonvalue.OtherTypes(p.X, ProbeCanary) {
		p.Put(p.Type+"-to-"+jsonvalue.TypeName(f), f, "a %s at %s in place of the %s",
			jsonvalue.TypeName(f), p.Path, p.Type)
	}
}

// wrapKeys are the one-member objects jsonvalue.OtherTypes puts a value in.
var wrapKeys = []string{"value", "text", "items"}

// wrong_type read backwards: a value put in a one-member object (jsonvalue.OtherTypes' objects) is
// taken out; any other value of a type the schema does not take is named by the types: the
// type wanted, then the type written ("number-to-boolean").
func (wrongType) undo(r *undoing, s *site) []undo {
	obj, ok := s.value.(map[string]any)
	if !ok || len(obj) != 1 || s.parent == nil || s.takes("object") || s.takes("any") {
		return nil
	}
	for k, inner := range obj {
		if slices.Contains(wrapKeys, k) {
			return []undo{{class: WrongType, variant: jsonvalue.TypeName(inner) + "-to-object", path: s.path,
				value: r.replace(s, inner)}}
		}
	}
	return nil
}

func (wrongType) explain(r *undoing, is validator.Issue, s *site) ([]Distortion, bool) {
	if s.parent == nil || !slices.Contains(typeKeywords, is.Keyword) {
		return nil, false
	}
	got := jsonvalue.TypeName(s.value)
	wanted := s.typeNames()
	if slices.Contains(wanted, got) {
		return nil, false // a value of a type the schema takes: a constraint broken (out_of_range_enum)
	}
	var variants []string
	for _, w := range wanted {
		variants = append(variants, w+"-to-"+got)
	}
	return []Distortion{{Class: WrongType, Variant: variants[0], Alike: variants[1:], Path: s.path,
		Keyword: is.Keyword}}, true
}
