package mutators

import (
	"slices"
	"strings"
	"unicode"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/uniq"
)

// hallucinated_key: a property the schema does not allow.

type hallucinated struct{}

func (hallucinated) Class() cases.Class { return HallucinatedKey }

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

func (hallucinated) Mutate(t *rapid.T, tg *Target) (cases.Case, bool) {
	// Objects that restrict their keys; an open object lets any key through, so it is no place
	// for this class (the oracle would say the same, at the price of a validation per try).
	var places []*site
	for _, s := range tg.sites {
		if _, ok := s.value.(map[string]any); ok && s.restrictsKeys() {
			places = append(places, s)
		}
	}
	keywords := []string{"additionalProperties", "unevaluatedProperties", "propertyNames", "false"}
	return firstConfirmed(t, tg, HallucinatedKey, places, func(t *rapid.T, s *site) []candidate {
		obj := s.value.(map[string]any)
		declared := s.declared()
		free := func(k string) bool { _, present := obj[k]; return !present && !declared[k] }
		c := canary(t)
		var out []candidate
		addKey := func(variant, k string, v any, reason func() string) {
			cn := ""
			if holdsText(v, c) {
				cn = c
			}
			out = append(out, candidate{
				build: func() any { return editedObject(tg.Value, s.tokens(), func(m map[string]any) { m[k] = v }) },
				text:  tg.withKey(s, k, v),
				path:  s.path + "/" + jsonvalue.EscapeToken(k), variant: variant, keywords: keywords,
				reason: reason, canary: cn,
			})
		}
		for _, k := range inventedKeys {
			if free(k) {
				addKey("invented", k, c, because("an invented key %q added to %s", k, describe(s)))
				break
			}
		}
		if sib := tg.ctx.siblingKeys; len(sib) > 0 {
			first := draw.Int(t, 0, len(sib)-1, "borrow")
			for i := 0; i < len(sib) && i < 16; i++ {
				if k := sib[(first+i)%len(sib)]; free(k) {
					addKey("borrowed", k, c, because("the key %q, which another tool of the file declares, added to %s", k, describe(s)))
					break
				}
			}
		}
		// A key JavaScript treats specially: a gate that copies the arguments with Object.assign
		// or any [[Set]] before validating never sees __proto__ (and its prototype changes), and
		// inherited names such as constructor slip past checks written with `in`.
		if k := jsSpecialKeys[draw.Int(t, 0, len(jsSpecialKeys)-1, "jsKey")]; free(k) {
			var v any = c
			if k == "__proto__" {
				v = map[string]any{"polluted": c, "isAdmin": true}
			}
			addKey("js-special-key", k, v, because("the key %q, which JavaScript objects treat specially, added to %s", k, describe(s)))
		}
		// A near miss of one declared key, drawn: the first of its spellings that is free.
		if names := sortedKeys(declared); len(names) > 0 {
			real := names[draw.Int(t, 0, len(names)-1, "nearMissOf")]
			for _, k := range nearMissKeys(real) {
				if !free(k) {
					continue
				}
				if v, present := obj[real]; present && !slices.Contains(s.requiredNames(), real) {
					k := k
					out = append(out, candidate{
						build: func() any {
							return editedObject(tg.Value, s.tokens(), func(m map[string]any) { delete(m, real); m[k] = v })
						},
						path: s.path + "/" + jsonvalue.EscapeToken(k), variant: "near-miss", keywords: keywords,
						reason: because("the key %q written as %q in %s", real, k, describe(s)),
					})
				} else if present {
					// A required key renamed would also be missing: the case would test required,
					// not unknown keys. The near miss goes beside it.
					addKey("near-miss", k, v, because("the key %q also written as %q in %s", real, k, describe(s)))
				} else {
					addKey("near-miss", k, c, because("the key %q added as %q to %s", real, k, describe(s)))
				}
				break
			}
		}
		return out
	})
}
