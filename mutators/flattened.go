package mutators

import (
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// flattened_array: an array folded into one value; object keys and values inverted.

// FlattenedArray is the class of an array folded into one value.
const FlattenedArray corpus.Class = "flattened_array"

func flattenedClass() Definition {
	return Definition{Name: FlattenedArray, Mutator: flattened{},
		Doc: "`[\"a\",\"b\"]` as `\"a,b\"` or `\"a, b\"`, `[x]` as `x`, a list of objects merged into one, " +
			"an object's keys and values swapped",
		recognise: recogniser{undo: flattened{}, undoRank: 6},
		Audit:     AuditHints{Analyse: flattenedHints, Probe: flattenedProbe}}
}

type flattened struct{}

func (flattened) Class() corpus.Class { return FlattenedArray }

var structuralKeywords = []string{"type", "required", "additionalProperties", "unevaluatedProperties",
	"propertyNames", "enum", "const", "pattern", "minProperties", "maxProperties", "minLength", "maxLength",
	"format", "false", "dependentRequired", "minItems", "items", "prefixItems"}

func (flattened) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	places := nonRoot(tg, func(s *site) bool {
		switch v := s.value.(type) {
		case []any:
			return len(v) > 0
		case map[string]any:
			return len(v) > 0 && allStrings(v)
		}
		return false
	})
	return firstConfirmed(t, tg, FlattenedArray, places, func(t *rapid.T, s *site) []candidate {
		var out []candidate
		add := func(variant string, v any, reason func() string) {
			out = append(out, candidate{build: at(tg, s, v), replaces: s, with: v, path: s.path, variant: variant,
				keywords: structuralKeywords, below: true, reason: reason})
		}
		switch v := s.value.(type) {
		case []any:
			if parts, ok := jsonvalue.ScalarTexts(v); ok {
				add("comma-joined", strings.Join(parts, ","), because("the array at %s joined into one comma-separated string", s.path))
				if len(parts) > 1 {
					add("comma-space", strings.Join(parts, ", "), because("the array at %s joined with \", \" into one string", s.path))
				}
			}
			add("unwrapped", v[0], because("the array at %s replaced by its first item", s.path))
			if merged, ok := mergeObjects(v); ok {
				add("objects-merged", merged, because("the list of objects at %s collapsed into one object", s.path))
			}
		case map[string]any:
			inv := map[string]any{}
			for k, e := range v {
				inv[e.(string)] = k
			}
			add("inverted", inv, because("the keys and values of the object at %s swapped", s.path))
		}
		return out
	})
}

func allStrings(m map[string]any) bool {
	seen := map[string]bool{}
	for _, v := range m {
		s, ok := v.(string)
		if !ok || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

func mergeObjects(a []any) (map[string]any, bool) {
	out := map[string]any{}
	for _, e := range a {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		for k, v := range m {
			out[k] = v
		}
	}
	return out, len(a) > 1
}

// flattenedHints: an array place catches a flattened array unless it also takes a string or an
// object.
func flattenedHints(p *SchemaPlace) []Hint {
	switch ts := p.Types; {
	case !p.Array:
		return nil
	case ts == nil || ts["string"] || ts["object"]:
		return passing("%s also allows a string or an object: a flattened array may pass", p.Where)
	}
	return caught("%s is an array only: \"a,b\" or a lone item is rejected", p.Where)
}

// flattenedProbe joins an array of scalars into one string, and replaces an array by its first
// item.
func flattenedProbe(p *Probe) {
	a, isArray := p.X.([]any)
	if !isArray || len(a) == 0 {
		return
	}
	if parts, ok := jsonvalue.ScalarTexts(a); ok {
		p.Put("comma-joined", strings.Join(parts, ","), "the array at %s joined into one comma-separated string", p.Path)
	}
	p.Put("unwrapped", a[0], "the array at %s replaced by its first item", p.Path)
}
