package mutators

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// json_in_string: an object or array JSON-encoded into a string.

// JSONInString is the class of an object or array JSON-encoded into a string.
const JSONInString corpus.Class = "json_in_string"

func jsonInStringClass() Definition {
	return Definition{Name: JSONInString, Mutator: jsonInString{}, Doc: "an object or array JSON-encoded into a string",
		recognise: recogniser{undo: jsonInString{}, undoRank: 2},
		Audit:     AuditHints{Analyse: jsonInStringHints, Probe: jsonInStringProbe}}
}

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
		return []candidate{{build: func() any { return jsonvalue.Replaced(tg.Value, s.tokens(), encoded) },
			replaces: s, with: encoded,
			path: s.path, variant: "encoded", keywords: typeKeywords,
			reason: because("the %s at %s JSON-encoded into a string", jsonvalue.TypeName(s.value), s.path)}}
	})
}

// jsonInStringHints: a place below the root that takes an object or array catches it encoded
// into a string unless it takes strings too.
func jsonInStringHints(p *SchemaPlace) []Hint {
	ts := p.Types
	switch {
	case p.Root || ts == nil || !(ts["object"] || ts["array"]):
		return nil
	case p.May("string"):
		return passing("%s is %s: JSON encoded into a string passes", p.Where, p.Desc)
	}
	return caught("%s is %s: a JSON-encoded string is rejected", p.Where, p.Desc)
}

// jsonInStringProbe encodes an object or array into a string.
func jsonInStringProbe(p *Probe) {
	if !p.Scalar() {
		p.Put("encoded", string(jsonvalue.MustMarshal(p.X)), "the %s at %s JSON-encoded into a string", p.Type, p.Path)
	}
}

// json_in_string read backwards: a string holding the JSON text of an object or array, where
// the schema does not take a string; undone by parsing it.
func (jsonInString) undo(r *undoing, s *site) []undo {
	str, ok := s.value.(string)
	if !ok || s.parent == nil || s.onlyString() {
		return nil
	}
	inner, err := jsonvalue.Parse([]byte(str))
	if err != nil {
		return nil
	}
	switch inner.(type) {
	case map[string]any, []any:
		return []undo{{class: JSONInString, variant: "encoded", path: s.path, value: r.replace(s, inner)}}
	}
	return nil
}
