package mutators

import (
	"maps"
	"slices"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// keyKeywords are the keywords that refuse a key.
var keyKeywords = []string{"additionalProperties", "unevaluatedProperties", "propertyNames", "false"}

// hallucinated_key read backwards: a key the schema does not declare, in an object the oracle
// rejects for its keys; undone by taking it out. Its variant says what the key is: a near miss
// of a declared key, a key JavaScript treats specially, another tool's key, or invented.
func (hallucinated) undo(r *reading, s *site) []undo {
	obj, ok := s.value.(map[string]any)
	if !ok {
		return nil
	}
	declared := s.declared()
	var out []undo
	inverted := ""
	if allStrings(obj) && len(obj) > 0 {
		// Keys and values swapped back may explain it as well (flattened_array's inverted).
		inv := map[string]any{}
		for k, e := range obj {
			inv[e.(string)] = k
		}
		if len(r.ctx.readings.Where(r.replace(s, inv)())) < len(r.issues) {
			inverted = string(FlattenedArray) + ":inverted"
		}
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		p := s.path + "/" + jsonvalue.EscapeToken(k)
		if declared[k] || !(r.issueAt(s.path, keyKeywords...) || r.issueAt(p, keyKeywords...)) {
			continue
		}
		variant, alike := r.keyVariant(k, declared)
		if inverted != "" {
			alike = append(alike, inverted)
		}
		out = append(out, undo{class: HallucinatedKey, variant: variant, alike: alike,
			path: p, value: r.without(s, k)})
	}
	return out
}

// explain names a key issue no undoing removed (a key the schema declares, refused by
// propertyNames, say).
func (hallucinated) explain(r *reading, is validator.Issue, s *site) ([]Distortion, bool) {
	if !slices.Contains(keyKeywords, is.Keyword) {
		return nil, false
	}
	d := Distortion{Class: HallucinatedKey, Variant: "invented", Path: s.path, Keyword: is.Keyword}
	if s.parent != nil && is.Path == s.path {
		d.Variant, d.Alike = r.keyVariant(s.name, s.parent.declared())
	}
	return []Distortion{d}, true
}

// keyVariant names what the key k is, and the other variants it also is.
func (r *reading) keyVariant(k string, declared map[string]bool) (string, []string) {
	var all []string
	for d := range declared {
		if slices.Contains(nearMissKeys(d), k) {
			all = append(all, "near-miss")
			break
		}
	}
	if slices.Contains(jsSpecialKeys, k) {
		all = append(all, "js-special-key")
	}
	if _, found := slices.BinarySearch(r.ctx.siblingKeys, k); found {
		all = append(all, "borrowed")
	}
	if slices.Contains(inventedKeys, k) || len(all) == 0 {
		all = append(all, "invented")
	}
	return all[0], all[1:]
}

// issueAt reports whether the oracle reports an issue at path with one of keywords (in a branch
// of an alternative too).
func (r *reading) issueAt(path string, keywords ...string) bool {
	return slices.ContainsFunc(r.located(), func(is validator.Issue) bool {
		return is.Path == path && slices.Contains(keywords, is.Keyword)
	})
}

// without undoes at s by leaving out its member k.
func (r *reading) without(s *site, k string) func() any {
	root := r.value
	return func() any { return editedObject(root, s.tokens(), func(m map[string]any) { delete(m, k) }) }
}
