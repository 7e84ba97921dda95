package mutators

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// rangeVariants name the out_of_range_enum variant of each keyword the oracle reports.
var rangeVariants = map[string]string{
	"minimum": "below-minimum", "maximum": "above-maximum", "exclusiveMinimum": "exclusive-minimum",
	"exclusiveMaximum": "exclusive-maximum", "multipleOf": "not-multiple", "minLength": "too-short",
	"maxLength": "too-long", "pattern": "pattern", "minItems": "too-few-items", "maxItems": "too-many-items",
	"uniqueItems": "duplicate-items",
}

// out_of_range_enum read backwards: a value of a type the schema takes that breaks one of its
// constraints, named by the keyword; a value outside an enum by what it is (a near miss of a
// member, another tool's member, a number, or another value); a fraction where an integer is
// required.
func (outOfRange) explain(r *undoing, is validator.Issue, s *site) ([]Distortion, bool) {
	d := Distortion{Class: OutOfRangeEnum, Path: s.path, Keyword: is.Keyword}
	kws := []string{is.Keyword}
	if branchKeyword(is.Keyword) || is.Keyword == "false" {
		kws = r.keywordsAt(s.path)
	}
	for _, kw := range kws {
		if v, ok := rangeVariants[kw]; ok {
			d.Variant = v
			if _, isArray := s.value.([]any); kw == "uniqueItems" && !isArray && s.parent != nil {
				d.Path = s.parent.path // reported at the repeated item: the array is the place
			}
			if kw == "multipleOf" && isFraction(s.value) && s.integerOnly() {
				d.Alike = []string{"float-for-integer"}
			}
			if str, ok := s.value.(string); ok && kw == "maxLength" {
				d.Alike = append(d.Alike, joinedAlike(s, str)...)
			}
			return []Distortion{d}, true
		}
	}
	switch {
	case slices.Contains(kws, "type") && isFraction(s.value) && s.integerOnly():
		d.Variant = "float-for-integer"
		if s.multipleOf() {
			d.Alike = []string{"not-multiple"}
		}
	case (slices.Contains(kws, "enum") || slices.Contains(kws, "const")) &&
		slices.Contains(s.typeNames(), jsonvalue.TypeName(s.value)):
		d.Variant, d.Alike = r.enumVariant(s)
	default:
		return nil, false
	}
	return []Distortion{d}, true
}

// joinedAlike names the readings of a string too long for the string a place takes, where it
// also takes what the string may have been made from: a list joined, or JSON encoded.
func joinedAlike(s *site, str string) []string {
	var out []string
	if s.takes("array") && strings.Contains(str, ",") {
		out = append(out, string(FlattenedArray)+":comma-joined", string(FlattenedArray)+":comma-space")
	}
	if inner, err := jsonvalue.Parse([]byte(str)); err == nil && s.takes(jsonvalue.TypeName(inner)) {
		out = append(out, string(JSONInString)+":encoded")
	}
	return out
}

// enumVariant names a value an enum does not list.
func (r *undoing) enumVariant(s *site) (string, []string) {
	if _, ok := s.value.(json.Number); ok {
		return "enum-number", nil
	}
	str, ok := s.value.(string)
	if !ok {
		return "enum-other", nil
	}
	var all []string
	for _, e := range s.enum() {
		if es, ok := e.(string); ok && slices.Contains(nearMissValues(es), str) {
			all = append(all, "enum-near-miss")
			break
		}
	}
	if _, found := slices.BinarySearch(r.ctx.siblingEnum, str); found {
		all = append(all, "enum-borrowed")
	}
	if len(all) == 0 {
		all = append(all, "enum-other")
	}
	return all[0], all[1:]
}

// isFraction reports whether v is a number with a fractional part.
func isFraction(v any) bool {
	n, ok := v.(json.Number)
	return ok && !jsonvalue.IsInteger(n)
}

// integerOnly reports whether the schemas at s take integers but no other numbers.
func (s *site) integerOnly() bool { return s.types().has("integer") && !s.numberType() }

// numberType reports whether some schema at s names the type number.
func (s *site) numberType() bool {
	for _, sch := range s.schemas {
		if sch.Types != nil && slices.Contains(sch.Types.ToStrings(), "number") {
			return true
		}
	}
	return false
}

// multipleOf reports whether some schema at s has a multipleOf.
func (s *site) multipleOf() bool {
	return slices.ContainsFunc(s.schemas, func(sch *jsonschema.Schema) bool { return sch.MultipleOf != nil })
}
