package mutators

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// stringified_type read backwards: a string that is one of stringForms of a number, boolean or
// null, where the schema wants that scalar; undone by reading the scalar back.
func (stringified) undo(r *reading, s *site) []undo {
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
