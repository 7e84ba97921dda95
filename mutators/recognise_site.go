package mutators

import (
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

// onlyString reports whether the schemas at s (and the branches of their alternatives) take
// strings and nothing else.
func (s *site) onlyString() bool {
	if !s.mayBe("string") {
		return false
	}
	for _, t := range []string{"null", "boolean", "object", "array", "number"} {
		if s.mayBe(t) || s.takes(t) {
			return false
		}
	}
	return true
}

// typeNames are the JSON types the schemas at s take (their enum's, else their types'), "any"
// when they name none; integer is number, as jsonvalue.TypeName says.
func (s *site) typeNames() []string {
	var out []string
	for _, t := range []string{"null", "boolean", "object", "array", "number", "string"} {
		if s.mayBe(t) || (t == "number" && s.mayBe("integer")) {
			out = append(out, t)
		}
	}
	if len(out) == 6 {
		if out = s.branchTypes(); len(out) == 0 {
			return []string{"any"}
		}
	}
	return out
}

// branchTypes are the types the branches of the anyOf and oneOf at s name (their enums' types
// where they name none), in the order of typeNames.
func (s *site) branchTypes() []string {
	set := map[string]bool{}
	for _, sch := range s.schemas {
		for _, bs := range [2][]*jsonschema.Schema{sch.AnyOf, sch.OneOf} {
			for _, b := range bs {
				for _, x := range schemawalk.Conjunction([]*jsonschema.Schema{b}, nil) {
					schemaTypes(x, set)
				}
			}
		}
	}
	var out []string
	for _, t := range []string{"null", "boolean", "object", "array", "number", "string"} {
		if set[t] {
			out = append(out, t)
		}
	}
	return out
}

// schemaTypes adds the types sch names (integer as number), or its enum's or const's.
func schemaTypes(sch *jsonschema.Schema, set map[string]bool) {
	switch {
	case sch.Types != nil:
		for _, t := range sch.Types.ToStrings() {
			if t == "integer" {
				t = "number"
			}
			set[t] = true
		}
	case sch.Enum != nil:
		for _, e := range sch.Enum.Values {
			set[jsonvalue.TypeName(e)] = true
		}
	case sch.Const != nil:
		set[jsonvalue.TypeName(*sch.Const)] = true
	}
}

// takes reports whether the schemas at s (or the branches of their alternatives) name type t.
func (s *site) takes(t string) bool {
	return slices.Contains(s.typeNames(), t) || slices.Contains(s.branchTypes(), t)
}

// admitting returns the branches whose type takes v's (integer as number); for an object, of
// those, the ones that declare the most of its keys: the branch that was meant.
func admitting(branches []*jsonschema.Schema, v any) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	ty := jsonvalue.TypeName(v)
	for _, b := range branches {
		if b.Bool != nil {
			continue
		}
		if b.Types == nil {
			out = append(out, b)
			continue
		}
		ts := b.Types.ToStrings()
		if slices.Contains(ts, ty) || (ty == "number" && slices.Contains(ts, "integer")) {
			out = append(out, b)
		}
	}
	obj, ok := v.(map[string]any)
	if !ok || len(out) < 2 {
		return out
	}
	score := func(b *jsonschema.Schema) int {
		n := 0
		for k := range obj {
			for _, x := range schemawalk.Conjunction([]*jsonschema.Schema{b}, nil) {
				if _, ok := x.Properties[k]; ok {
					n++
					break
				}
			}
		}
		return n
	}
	best := slices.MaxFunc(out, func(a, b *jsonschema.Schema) int { return score(a) - score(b) })
	top := score(best)
	return slices.DeleteFunc(out, func(b *jsonschema.Schema) bool { return score(b) < top })
}
