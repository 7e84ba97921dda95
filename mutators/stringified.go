package mutators

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// stringified_type: a number, integer, boolean or null written as a string.

// StringifiedType is the class of a number, integer, boolean or null written as a string.
const StringifiedType corpus.Class = "stringified_type"

func stringifiedClass() Definition {
	return Definition{Name: StringifiedType, Mutator: stringified{},
		Doc: "a number, boolean or null written as a string: `\"20\"`, `\" 20\"`, `\"20.0\"`, `\"twenty\"`, " +
			"`\"True\"`, `\"yes\"`, `\"null\"`, `\"None\"`",
		recognise: recogniser{undo: stringified{}, undoRank: 3},
		Audit:     AuditHints{Analyse: stringifiedHints, Probe: stringifiedProbe}}
}

type stringified struct{}

func (stringified) Class() corpus.Class { return StringifiedType }

var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}

// stringForms are the strings a model writes for a scalar: the exact text, padded, as a
// decimal, as a word; True/yes/1 for booleans; "null" and "None" for null.
func stringForms(v any) [][2]string {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		forms := [][2]string{{"exact", s}, {"padded", " " + s}}
		if jsonvalue.IsInteger(v) && !strings.ContainsAny(s, ".eE") {
			forms = append(forms, [2]string{"decimal", s + ".0"})
			if r, ok := jsonvalue.Rat(v); ok && r.Sign() >= 0 && r.Num().IsInt64() && r.Num().Int64() <= 20 {
				forms = append(forms, [2]string{"word", numberWords[r.Num().Int64()]})
			}
		}
		return forms
	case bool:
		if v {
			return [][2]string{{"exact", "true"}, {"capitalised", "True"}, {"yes-no", "yes"}, {"digit", "1"}}
		}
		return [][2]string{{"exact", "false"}, {"capitalised", "False"}, {"yes-no", "no"}, {"digit", "0"}}
	case nil:
		return [][2]string{{"exact", "null"}, {"python", "None"}}
	}
	return nil
}

func (stringified) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	places := nonRoot(tg, func(s *site) bool { return stringForms(s.value) != nil && !s.mayBe("string") })
	return firstConfirmed(t, tg, StringifiedType, places, func(t *rapid.T, s *site) []candidate {
		var out []candidate
		for _, f := range stringForms(s.value) {
			out = append(out, candidate{
				build: at(tg, s, f[1]), replaces: s, with: f[1], path: s.path, variant: f[0],
				keywords: []string{"type", "enum", "const"},
				reason:   because("the %s at %s written as the string %q", jsonvalue.TypeName(s.value), s.path, f[1]),
			})
		}
		return out
	})
}

// stringifiedHints: a place that takes a number, boolean or null catches a string unless it
// takes strings too.
func stringifiedHints(p *SchemaPlace) []Hint {
	ts := p.Types
	switch {
	case p.Root || ts == nil || !(ts["number"] || ts["integer"] || ts["boolean"] || ts["null"]):
		return nil
	case p.May("string"):
		return passing("%s is %s: a number or boolean written as a string passes", p.Where, p.Desc)
	}
	return caught("%s is %s: a string there is rejected", p.Where, p.Desc)
}

// stringifiedProbe writes a number, a boolean or null as a string.
func stringifiedProbe(p *Probe) {
	var str string
	switch v := p.X.(type) {
	case json.Number:
		str = string(v)
	case bool:
		str = strconv.FormatBool(v)
	case nil:
		str = "null"
	default:
		return
	}
	p.Put("exact", str, "the %s at %s written as the string %q", p.Type, p.Path, str)
}

// stringified_type read backwards: a string that is one of stringForms of a number, boolean or
// null, where the schema wants that scalar; undone by reading the scalar back.
func (stringified) undo(r *undoing, s *site) []undo {
	str, ok := s.value.(string)
	if !ok || s.parent == nil || s.onlyString() {
		return nil
	}
	var out []undo
	for _, f := range unstringForms(str) {
		out = append(out, undo{class: StringifiedType, variant: f.variant, path: s.path, value: r.replace(s, f.value)})
	}
	return out
}

// unstringForm is a scalar a string may stand for, and the variant of stringForms that
// writes it so.
type unstringForm struct {
	variant string
	value   any
}

// unstringForms are the scalars str may be stringForms of, numbers first.
func unstringForms(str string) []unstringForm {
	var out []unstringForm
	if jsonvalue.IsNumber(str) {
		out = append(out, unstringForm{"exact", json.Number(str)})
		if whole, ok := strings.CutSuffix(str, ".0"); ok && !strings.ContainsAny(whole, ".eE") {
			out = append(out, unstringForm{"decimal", json.Number(whole)})
		}
	} else if t := strings.TrimLeft(str, " "); t != str && jsonvalue.IsNumber(t) {
		out = append(out, unstringForm{"padded", json.Number(t)})
	}
	if i := slices.Index(numberWords, str); i >= 0 {
		out = append(out, unstringForm{"word", json.Number(strconv.Itoa(i))})
	}
	for _, b := range []bool{true, false} {
		for _, f := range stringForms(b) {
			if f[1] == str {
				out = append(out, unstringForm{f[0], b})
			}
		}
	}
	for _, f := range stringForms(nil) {
		if f[1] == str {
			out = append(out, unstringForm{f[0], nil})
		}
	}
	return out
}
