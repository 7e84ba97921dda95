package mutators

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// misnamed_key: a required key written in another case or naming style, in place of it
// (`City` for `city`, `fileName` for `file_name`), its value kept. Go's encoding/json binds
// keys case-insensitively, so such a key reaches a Go handler as the declared one.

// MisnamedKey is the class of a required key written in another case or naming style.
const MisnamedKey corpus.Class = "misnamed_key"

func misnamedClass() Definition {
	return Definition{Name: MisnamedKey, Mutator: renamedKey{},
		Doc: "a required key written in another case or style, in place of it, its value kept: `City` for `city`, " +
			"`CITY`, `fileName` for `file_name`, `file_name` for `fileName` (Go's `encoding/json` binds keys " +
			"case-insensitively, so `{\"City\": ...}` reaches a Go handler as `city`); an optional key misnamed in " +
			"a closed object is `hallucinated_key`'s near miss",
		recognise: recogniser{undo: renamedKey{}, undoRank: 8},
		Audit:     AuditHints{Analyse: misnamedHints, Probe: misnamedProbe, Anchor: AtObject, LeavesOut: true}}
}

type renamedKey struct{}

func (renamedKey) Class() corpus.Class { return MisnamedKey }

// misnamedKeywords are the keywords a required key misnamed breaks: the key is missing (in an
// object that restricts its keys the new one is refused as well, and is hallucinated_key's
// near miss where no key is missing).
var misnamedKeywords = []string{"required"}

// misnamings are the other spellings of the key k a model writes, each once with its variant:
// another case (capitalised, upper, lower) and the other naming style (camelCase, snake_case).
func misnamings(k string) [][2]string {
	var out [][2]string
	add := func(variant, s string) {
		if s != k && !slices.ContainsFunc(out, func(f [2]string) bool { return f[1] == s }) {
			out = append(out, [2]string{variant, s})
		}
	}
	if k == "" {
		return nil
	}
	add("capitalised", strings.ToUpper(k[:1])+k[1:])
	add("upper-case", strings.ToUpper(k))
	add("lower-case", strings.ToLower(k))
	add("camel", toCamel(k))
	add("snake", toSnake(k))
	return out
}

func (renamedKey) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	var places []*site
	for _, s := range tg.sites {
		if len(misnamedKeys(s)) > 0 {
			places = append(places, s)
		}
	}
	return firstConfirmed(t, tg, MisnamedKey, places, func(t *rapid.T, s *site) []candidate {
		var out []candidate
		for _, m := range misnamedKeys(s) {
			k, variant, v := m[0], m[1], m[2]
			out = append(out, candidate{
				build: func() any { return renamed(tg.Value, s.tokens(), k, v) },
				path:  s.path + "/" + jsonvalue.EscapeToken(k), variant: variant, keywords: misnamedKeywords,
				reason: because("the required key %q written as %q in %s", k, v, describe(s)),
			})
		}
		return out
	})
}

// misnamedKeys are the misnamings of the required keys the object at s holds: the key, the
// variant and the new key, for each new key the object neither holds nor declares.
func misnamedKeys(s *site) [][3]string {
	obj, ok := s.value.(map[string]any)
	if !ok {
		return nil
	}
	declared := s.declared()
	var out [][3]string
	for _, k := range s.requiredNames() {
		if _, present := obj[k]; !present {
			continue
		}
		for _, f := range misnamings(k) {
			if _, taken := obj[f[1]]; !taken && !declared[f[1]] {
				out = append(out, [3]string{k, f[0], f[1]})
			}
		}
	}
	return out
}

// renamed returns a copy of root with the key from of the object at toks renamed to, its value
// kept.
func renamed(root any, toks []string, from, to string) any {
	return editedObject(root, toks, func(m map[string]any) {
		m[to] = m[from]
		delete(m, from)
	})
}

// misnamedHints: an object place that requires names catches one misnamed; one that requires
// none catches a misnamed key only where it is closed.
func misnamedHints(p *SchemaPlace) []Hint {
	o := p.Object
	switch {
	case o == nil || len(o.Declared) == 0 && len(o.Required) == 0:
		return nil
	case len(o.Required) > 0:
		return []Hint{{Why: fmt.Sprintf("%s requires %s: a required key misnamed is missing", p.Where,
			strings.Join(o.Required, ", ")), Required: o.Required, Declared: o.Declared}}
	case o.Closed != "":
		return []Hint{{Why: fmt.Sprintf("%s is closed (%s): a misnamed key is rejected", p.Where, o.Closed),
			Declared: o.Declared}}
	}
	return []Hint{{Passes: true, Why: p.Where + " is open and requires nothing: a misnamed key passes",
		Declared: o.Declared}}
}

// misnamedProbe renames each required key the object holds (each declared one, when none is
// required) to each of its misnamings the object does not declare, in name order. The form
// touches the declared key, which is then missing; an optional key's touches the new one.
func misnamedProbe(p *Probe) {
	obj, keys := p.heldKeys()
	for _, k := range keys {
		for _, f := range misnamings(k) {
			if _, taken := obj[f[1]]; taken || slices.Contains(p.Declared, f[1]) {
				continue
			}
			m := withoutKey(obj, k)
			m[f[1]] = obj[k]
			at := k
			if len(p.Required) == 0 {
				at = f[1]
			}
			p.PutObject(m, p.Path+"/"+jsonvalue.EscapeToken(at), f[0],
				fmt.Sprintf("the key %q written as %q in %s", k, f[1], where(p.Path)))
		}
	}
}

// misnamed_key read backwards: a key the object's schema does not declare that is a misnaming
// of a declared key the object lacks; undone by renaming it back, and named at the declared
// key's place. Where the object refuses the new key and it is a near miss of the declared one,
// hallucinated_key's near miss writes the same text at the new key.
func (renamedKey) undo(r *undoing, s *site) []undo {
	obj, ok := s.value.(map[string]any)
	if !ok {
		return nil
	}
	declared := s.declared()
	var out []undo
	for _, v := range slices.Sorted(maps.Keys(obj)) {
		if declared[v] {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(declared)) {
			if _, present := obj[k]; present {
				continue
			}
			forms := misnamings(k)
			i := slices.IndexFunc(forms, func(f [2]string) bool { return f[1] == v })
			if i < 0 {
				continue
			}
			root, toks, from, to := r.value, s.tokens(), v, k
			u := undo{class: MisnamedKey, variant: forms[i][0], path: s.path + "/" + jsonvalue.EscapeToken(k),
				value: func() any { return renamed(root, toks, from, to) }}
			at := s.path + "/" + jsonvalue.EscapeToken(v)
			if slices.Contains(nearMissKeys(k), v) &&
				(r.issueAt(s.path, keyKeywords...) || r.issueAt(at, keyKeywords...)) {
				u.alike = []string{string(HallucinatedKey) + ":near-miss@" + at}
			}
			out = append(out, u)
		}
	}
	return out
}
