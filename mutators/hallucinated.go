package mutators

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/uniq"
	"github.com/toolproof/toolproof/validator"
)

// hallucinated_key: a property the schema does not allow.

// HallucinatedKey is the class of a key the schema does not allow.
const HallucinatedKey corpus.Class = "hallucinated_key"

func hallucinatedClass() Definition {
	return Definition{Name: HallucinatedKey, Mutator: hallucinated{},
		Doc: "a key the schema does not allow: invented, borrowed from another tool of the file, a near miss of a " +
			"real one (`timeout_seconds` for `timeoutSeconds`, `Path`, `paths`; beside a required key, not instead " +
			"of it), or a key JavaScript treats specially (`__proto__` with an object value, `constructor`, " +
			"`prototype`, `toString`, `hasOwnProperty`: a gate that copies arguments with `Object.assign` never sees " +
			"`__proto__`, and its prototype changes)",
		recognise: recogniser{undo: hallucinated{}, undoRank: 7, explain: hallucinated{}, explainRank: 5},
		Audit:     AuditHints{Analyse: hallucinatedHints, Probe: hallucinatedProbe, Anchor: AtObject}}
}

type hallucinated struct{}

func (hallucinated) Class() corpus.Class { return HallucinatedKey }

var inventedKeys = []string{"verbose", "force", "timeout", "recursive", "format", "dry_run", "confirm",
	"options", "debug", "max_retries", "reason", "metadata", "user_id", "encoding", "callback_url", "limit"}

// jsSpecialKeys are names every JavaScript object has or treats specially.
var jsSpecialKeys = []string{"__proto__", "__proto__", "constructor", "prototype", "toString", "hasOwnProperty"}

// nearMissKeys are the spellings a model uses for a real key: snake_case for camelCase and back,
// another case, plural or singular, a dropped letter, hyphens.
func nearMissKeys(k string) []string {
	var out []string
	add := func(s string) {
		if s != "" && s != k {
			out = append(out, s)
		}
	}
	add(toSnake(k))
	add(toCamel(k))
	add(strings.ToUpper(k[:1]) + k[1:])
	if strings.HasSuffix(k, "s") {
		add(strings.TrimSuffix(k, "s"))
	} else {
		add(k + "s")
	}
	add(strings.ReplaceAll(k, "_", "-"))
	if len(k) > 3 {
		add(k[:len(k)/2] + k[len(k)/2+1:])
	}
	return uniq.Of(out)
}

func toSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func toCamel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func (hallucinated) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	// Objects that restrict their keys; an open object lets any key through, so it is no place
	// for this class (the oracle would say the same, at the price of a validation per try).
	var places []*site
	for _, s := range tg.sites {
		if _, ok := s.value.(map[string]any); ok && s.restrictsKeys() {
			places = append(places, s)
		}
	}
	return firstConfirmed(t, tg, HallucinatedKey, places, func(t *rapid.T, s *site) []candidate {
		p := &keyAdder{tg: tg, s: s, obj: s.value.(map[string]any), declared: s.declared(), c: canary(t)}
		p.invented()
		p.borrowed(t)
		p.jsSpecial(t)
		p.nearMiss(t)
		return p.out
	})
}

// hallucinatedKeywords are the keywords that reject a key an object does not take.
var hallucinatedKeywords = []string{"additionalProperties", "unevaluatedProperties", "propertyNames", "false"}

// keyAdder proposes the keys hallucinated_key adds to the object at s.
type keyAdder struct {
	tg       *Target
	s        *site
	obj      map[string]any
	declared map[string]bool
	c        string // the canary
	out      []candidate
}

// free reports whether k is neither in the object nor declared.
func (p *keyAdder) free(k string) bool {
	_, present := p.obj[k]
	return !present && !p.declared[k]
}

// add proposes the object with k: v added.
func (p *keyAdder) add(variant, k string, v any, reason func() string) {
	cn := ""
	if holdsText(v, p.c) {
		cn = p.c
	}
	tg, s := p.tg, p.s
	p.out = append(p.out, candidate{
		build: func() any { return editedObject(tg.Value, s.tokens(), func(m map[string]any) { m[k] = v }) },
		text:  tg.withKey(s, k, v),
		path:  s.path + "/" + jsonvalue.EscapeToken(k), variant: variant, keywords: hallucinatedKeywords,
		reason: reason, canary: cn,
	})
}

// invented proposes the first free invented key.
func (p *keyAdder) invented() {
	for _, k := range inventedKeys {
		if p.free(k) {
			p.add("invented", k, p.c, because("an invented key %q added to %s", k, describe(p.s)))
			return
		}
	}
}

// borrowed proposes a free key another tool of the file declares, from a drawn one on.
func (p *keyAdder) borrowed(t *rapid.T) {
	sib := p.tg.ctx.siblingKeys
	if len(sib) == 0 {
		return
	}
	first := draw.Int(t, 0, len(sib)-1, "borrow")
	for i := 0; i < len(sib) && i < 16; i++ {
		if k := sib[(first+i)%len(sib)]; p.free(k) {
			p.add("borrowed", k, p.c,
				because("the key %q, which another tool of the file declares, added to %s", k, describe(p.s)))
			return
		}
	}
}

// jsSpecial proposes a key JavaScript treats specially: a gate that copies the arguments with
// Object.assign or any [[Set]] before validating never sees __proto__ (and its prototype
// changes), and inherited names such as constructor slip past checks written with `in`.
func (p *keyAdder) jsSpecial(t *rapid.T) {
	k := jsSpecialKeys[draw.Int(t, 0, len(jsSpecialKeys)-1, "jsKey")]
	if !p.free(k) {
		return
	}
	var v any = p.c
	if k == "__proto__" {
		v = map[string]any{"polluted": p.c, "isAdmin": true}
	}
	p.add("js-special-key", k, v,
		because("the key %q, which JavaScript objects treat specially, added to %s", k, describe(p.s)))
}

// nearMiss proposes a near miss of one declared key, drawn: the first of its spellings that is
// free, in place of the key when it is present and optional, beside it otherwise.
func (p *keyAdder) nearMiss(t *rapid.T) {
	names := slices.Sorted(maps.Keys(p.declared))
	if len(names) == 0 {
		return
	}
	real := names[draw.Int(t, 0, len(names)-1, "nearMissOf")]
	for _, k := range nearMissKeys(real) {
		if !p.free(k) {
			continue
		}
		tg, s := p.tg, p.s
		if v, present := p.obj[real]; present && !slices.Contains(s.requiredNames(), real) {
			p.out = append(p.out, candidate{
				build: func() any {
					return editedObject(tg.Value, s.tokens(), func(m map[string]any) { delete(m, real); m[k] = v })
				},
				path: s.path + "/" + jsonvalue.EscapeToken(k), variant: "near-miss", keywords: hallucinatedKeywords,
				reason: because("the key %q written as %q in %s", real, k, describe(s)),
			})
		} else if present {
			// A required key renamed would also be missing: the case would test required,
			// not unknown keys. The near miss goes beside it.
			p.add("near-miss", k, v, because("the key %q also written as %q in %s", real, k, describe(s)))
		} else {
			p.add("near-miss", k, p.c, because("the key %q added as %q to %s", real, k, describe(s)))
		}
		return
	}
}

// hallucinatedHints: an object place catches an invented key when it is closed or restricts
// its key names; an open object or a map lets it through.
func hallucinatedHints(p *SchemaPlace) []Hint {
	o := p.Object
	if o == nil {
		return nil
	}
	var h Hint
	switch {
	case o.Closed != "":
		h.Why = fmt.Sprintf("%s is closed (%s): unknown keys are rejected", p.Where, o.Closed)
	case o.Names:
		h.Why = p.Where + " restricts its keys with propertyNames"
	case o.Map:
		h.Passes, h.Why = true, p.Where+
			" is a map (additionalProperties is a schema): any key with a valid value passes"
	default:
		h.Passes, h.Why = true, p.Where+" is an open object: invented keys pass"
	}
	h.Declared = o.Declared
	return []Hint{h}
}

// probeKeys are the keys the audit invents, tried in order; the first the object neither
// holds nor declares is used.
var probeKeys = []string{"verbose", "debug", "dry_run", "metadata", "tpc_audit"}

// hallucinatedProbe adds an invented key to an object: with a canary, and with the value of a
// key already there (a map may take any key whose value is valid).
func hallucinatedProbe(p *Probe) {
	obj, isObject := p.X.(map[string]any)
	if !isObject {
		return
	}
	key := ""
	for _, k := range probeKeys {
		if _, present := obj[k]; !present && !slices.Contains(p.Declared, k) {
			key = k
			break
		}
	}
	if key == "" {
		return
	}
	kp := p.Path + "/" + jsonvalue.EscapeToken(key)
	p.PutObject(withKey(obj, key, ProbeCanary), kp, "invented",
		fmt.Sprintf("an invented key %q added to %s", key, where(p.Path)))
	if ks := sortedKeys(obj); len(ks) > 0 {
		p.PutObject(withKey(obj, key, obj[ks[0]]), kp, "invented-copy",
			fmt.Sprintf("an invented key %q added to %s with the value of %q", key, where(p.Path), ks[0]))
	}
}

// keyKeywords are the keywords that refuse a key.
var keyKeywords = []string{"additionalProperties", "unevaluatedProperties", "propertyNames", "false"}

// hallucinated_key read backwards: a key the schema does not declare, in an object the oracle
// rejects for its keys; undone by taking it out. Its variant says what the key is: a near miss
// of a declared key, a key JavaScript treats specially, another tool's key, or invented.
func (hallucinated) undo(r *undoing, s *site) []undo {
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
		if len(r.ctx.readings.Errors(r.replace(s, inv)())) < len(r.issues) {
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
func (hallucinated) explain(r *undoing, is validator.Issue, s *site) ([]Distortion, bool) {
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
func (r *undoing) keyVariant(k string, declared map[string]bool) (string, []string) {
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
func (r *undoing) issueAt(path string, keywords ...string) bool {
	return slices.ContainsFunc(r.located(), func(is validator.Issue) bool {
		return is.Path == path && slices.Contains(keywords, is.Keyword)
	})
}

// without undoes at s by leaving out its member k.
func (r *undoing) without(s *site, k string) func() any {
	root := r.value
	return func() any { return editedObject(root, s.tokens(), func(m map[string]any) { delete(m, k) }) }
}
