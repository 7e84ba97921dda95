package mutators

import (
	"fmt"
	"sort"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// missing_required: a required property left out.

// MissingRequired is the class of a required property left out.
const MissingRequired corpus.Class = "missing_required"

func missingClass() Definition {
	return Definition{Name: MissingRequired, Mutator: missing{}, Doc: "a required property left out",
		recognise: recogniser{explain: missing{}, explainRank: 1},
		Audit:     AuditHints{Analyse: missingHints, Probe: missingProbe, Anchor: AtObject, LeavesOut: true}}
}

type missing struct{}

func (missing) Class() corpus.Class { return MissingRequired }

func (missing) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
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
				build: func() any {
					return editedObject(tg.Value, s.tokens(),
						func(m map[string]any) { delete(m, r) })
				},
				text: tg.withoutKey(s, r),
				path: s.path + "/" + jsonvalue.EscapeToken(r), variant: "omitted",
				keywords: []string{"required", "dependentRequired", "dependencies"},
				reason:   because("the required property %q left out of %s", r, describe(s)),
			})
		}
		return out
	})
}

// missingHints: an object place that requires names catches one left out; one that declares
// names and requires none lets it through.
func missingHints(p *SchemaPlace) []Hint {
	o := p.Object
	switch {
	case o == nil:
		return nil
	case len(o.Required) > 0:
		return []Hint{{Why: fmt.Sprintf("%s requires %s", p.Where, strings.Join(o.Required, ", ")),
			Required: o.Required, Declared: o.Declared}}
	case len(o.Declared) > 0:
		return []Hint{{Passes: true, Why: p.Where + " requires nothing: leaving properties out passes",
			Required: o.Required, Declared: o.Declared}}
	}
	return nil
}

// missingProbe leaves out each required property the object holds (each declared one, when
// none is required), in name order.
func missingProbe(p *Probe) {
	obj, keys := p.heldKeys()
	for _, k := range keys {
		p.PutObject(withoutKey(obj, k), p.Path+"/"+jsonvalue.EscapeToken(k), "omitted",
			fmt.Sprintf("the property %q left out of %s", k, where(p.Path)))
	}
}

// missing_required read backwards: a required (or dependent-required) property an object lacks,
// named at the place it should be.
func (missing) explain(r *undoing, is validator.Issue, s *site) ([]Distortion, bool) {
	obj, ok := s.value.(map[string]any)
	if !ok || (is.Keyword != "required" && is.Keyword != "dependentRequired" && is.Keyword != "dependencies") {
		return nil, false
	}
	want := map[string]bool{}
	for _, k := range s.requiredNames() {
		want[k] = true
	}
	for _, sch := range s.schemas {
		for k, deps := range sch.DependentRequired {
			if _, present := obj[k]; present {
				for _, d := range deps {
					want[d] = true
				}
			}
		}
	}
	var out []Distortion
	for k := range want {
		p := s.path + "/" + jsonvalue.EscapeToken(k)
		if _, present := obj[k]; !present && (is.Path == s.path || is.Path == p) {
			out = append(out, Distortion{Class: MissingRequired, Variant: "omitted",
				Path: p, Keyword: is.Keyword})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, len(out) > 0
}
