package generate

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// bigEnum is the size above which an enum's values are checked by enumMemberValid.
const bigEnum = 64

// enumMemberValid returns a check of the values of s's enum (or const) against roots that does
// not scan the enum for each of them (n values, n comparisons each): every schema of the
// conjunction conj is checked on its own, s without its enum, which each value is in. Where
// the schemas of a conjunction do not apply on their own (unevaluated*, $dynamicRef), the roots
// are checked whole.
func enumMemberValid(roots, conj []*jsonschema.Schema, s *jsonschema.Schema) func(any) bool {
	parts := make([]*jsonschema.Schema, 0, len(conj))
	for _, x := range conj {
		if x.UnevaluatedItems != nil || x.UnevaluatedProperties != nil || x.DynamicRef != nil || x.RecursiveRef != nil {
			return func(v any) bool { return validForAll(roots, v) }
		}
		cp := *x
		cp.Ref, cp.AllOf = nil, nil // in conj already
		if x == s {
			cp.Enum, cp.Const = nil, nil
		}
		parts = append(parts, &cp)
	}
	return func(v any) bool { return validForAll(parts, v) }
}

func validForAll(roots []*jsonschema.Schema, v any) bool {
	for _, r := range roots {
		if r.Validate(v) != nil {
			return false
		}
	}
	return true
}

// planEnum plans the node as the members of the first enum or const of conj that every root
// accepts; false when conj has none.
func (n *node) planEnum(conj []*jsonschema.Schema) bool {
	for _, s := range conj {
		var cands []any
		switch {
		case s.Const != nil:
			cands = []any{*s.Const}
		case s.Enum != nil:
			cands = s.Enum.Values
		default:
			continue
		}
		n.enum = []any{}
		valid := func(c any) bool { return validForAll(n.roots, c) }
		if len(cands) > bigEnum {
			valid = enumMemberValid(n.roots, conj, s)
		}
		for _, c := range cands {
			if valid(c) {
				n.enum = append(n.enum, c)
			}
		}
		if len(n.enum) == 0 {
			n.unsat = "no value of the enum or const at " + s.Location + " satisfies the other constraints"
		}
		n.check = false // every candidate was validated against the roots
		return true
	}
	return false
}
