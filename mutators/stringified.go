package mutators

import (
	"encoding/json"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// stringified_type: a number, integer, boolean or null written as a string.

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
