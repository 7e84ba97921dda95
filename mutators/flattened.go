package mutators

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
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
				add("comma-joined", strings.Join(parts, ","),
					because("the array at %s joined into one comma-separated string", s.path))
				if len(parts) > 1 {
					add("comma-space", strings.Join(parts, ", "),
						because("the array at %s joined with \", \" into one string", s.path))
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
		p.Put("comma-joined", strings.Join(parts, ","),
			"the array at %s joined into one comma-separated string", p.Path)
	}
	p.Put("unwrapped", a[0], "the array at %s replaced by its first item", p.Path)
}

// flattened_array read backwards: where the schema wants an array, a string of joined items is
// split, a lone value put back in an array; an object of strings whose keys and values were
// swapped is swapped back.
func (flattened) undo(r *undoing, s *site) []undo {
	if s.parent == nil || s.value == nil {
		return nil // a lone null is null_value's
	}
	var out []undo
	if obj, ok := s.value.(map[string]any); ok && allStrings(obj) && len(obj) > 0 && r.keysRefused(s) {
		inv := map[string]any{}
		for k, e := range obj {
			inv[e.(string)] = k
		}
		out = append(out, undo{class: FlattenedArray, variant: "inverted", path: s.path, value: r.replace(s, inv)})
	}
	if !s.takes("array") {
		return out
	}
	if a, isArray := s.value.([]any); isArray {
		// An array of arrays unwrapped: its first item, an array, in its place.
		if !r.issueAt(s.path, "type") &&
			!slices.ContainsFunc(a, func(e any) bool { return r.issueAt(s.path+"/0", "type") }) {
			return out
		}
		u := undo{class: FlattenedArray, variant: "unwrapped", path: s.path,
			value: r.replace(s, []any{a}), partial: true}
		if len(a) == 1 {
			// [[x]] written [x]: the outer array unwrapped, or the inner one.
			u.alike = []string{string(FlattenedArray) + ":unwrapped@" + s.path + "/0"}
		}
		return append(out, u)
	}
	return append(out, r.unflattened(s)...)
}

// keysRefused reports whether the oracle refuses every key of the object at s, or it holds no
// key the schema declares but misses one it requires: the keys are not what was meant.
func (r *undoing) keysRefused(s *site) bool {
	obj := s.value.(map[string]any)
	declared := s.declared()
	if len(declared) > 0 &&
		!slices.ContainsFunc(slices.Collect(maps.Values(obj)), func(v any) bool { return !declared[v.(string)] }) {
		return true // every value is a key the schema declares
	}
	if len(obj) < 2 {
		return false // one key refused: hallucinated_key's, which names inverted as alike
	}
	every := true
	for k := range obj {
		every = every && r.issueAt(s.path+"/"+jsonvalue.EscapeToken(k), keyKeywords...)
		if declared[k] {
			return every && false
		}
	}
	return every || r.issueAt(s.path, "required") || slices.ContainsFunc(r.located(), func(is validator.Issue) bool {
		return is.Keyword == "required" && jsonvalue.Parent(is.Path) == s.path
	})
}

// unflattened proposes the arrays the value at s may have been flattened from.
func (r *undoing) unflattened(s *site) []undo {
	var out []undo
	add := func(variant string, a []any) {
		out = append(out, undo{class: FlattenedArray, variant: variant, path: s.path, value: r.replace(s, a)})
	}
	if str, ok := s.value.(string); ok && !strings.Contains(str, ",") {
		// One string where an array is wanted: a list of one joined, or a string for the list.
		add("comma-joined", []any{str})
		out[len(out)-1].alike = []string{"unwrapped", string(WrongType) + ":array-to-string"}
		out[len(out)-1].partial = true
		return out
	} else if ok {
		// A string with commas is read as joined, or as an array's one item; the reading with
		// fewer issues is kept, the other named alike when the oracle confirms it too.
		if strings.Contains(str, ", ") {
			add("comma-space", splitItems(str, ", ", false))
			add("comma-space", splitItems(str, ", ", true))
			// "a, b" is as well "a" and " b" joined with ",".
			out[len(out)-2].alike = []string{"comma-joined"}
			out[len(out)-1].alike = []string{"comma-joined"}
		}
		add("comma-joined", splitItems(str, ",", false))
		add("comma-joined", splitItems(str, ",", true))
		tooLong := ""
		if m, ok := s.intField(func(x *jsonschema.Schema) *int { return x.MaxLength }, false); ok &&
			utf8.RuneCountInString(str) > m {
			tooLong = string(OutOfRangeEnum) + ":too-long" // a string past its length reads so too
		}
		for i := range out {
			out[i].partial = true
			if tooLong != "" {
				out[i].alike = append(out[i].alike, tooLong)
			}
		}
		add("unwrapped", []any{str})
		out[len(out)-1].partial = true
		return out
	}
	if _, isObj := s.value.(map[string]any); isObj {
		add("objects-merged", []any{s.value})
		// Merged objects may not make one valid item: the array is what was meant when the
		// issue at the place goes.
		out[len(out)-1].partial = true
	}
	add("unwrapped", []any{s.value})
	out[len(out)-1].partial = true
	if pa, ok := s.parent.value.([]any); ok && len(pa) == 1 {
		// [[x]] written [x]: the inner array unwrapped, or the outer one.
		out[len(out)-1].alike = []string{string(FlattenedArray) + ":unwrapped@" + s.parent.path}
	}
	return out
}

// splitItems splits a joined string; typed reads numbers and booleans back as ScalarTexts
// wrote them.
func splitItems(s, sep string, typed bool) []any {
	var out []any
	for _, p := range strings.Split(s, sep) {
		switch {
		case typed && jsonvalue.IsNumber(p):
			out = append(out, json.Number(p))
		case typed && (p == "true" || p == "false"):
			out = append(out, p == "true")
		default:
			out = append(out, p)
		}
	}
	return out
}
