package generate

import (
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
)

// typeSet is a set of JSON types. "number" is tInt|tNum: tNum stands for numbers that need not
// be integers, so intersecting "number" with "integer" leaves tInt.
type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBool
	tInt
	tNum
	tStr
	tArr
	tObj
	tAll = tNull | tBool | tInt | tNum | tStr | tArr | tObj
)

var typeOrder = []typeSet{tNull, tBool, tInt, tNum, tStr, tArr, tObj}

func fromTypes(tt *jsonschema.Types) typeSet {
	var ts typeSet
	for _, s := range tt.ToStrings() {
		switch s {
		case "null":
			ts |= tNull
		case "boolean":
			ts |= tBool
		case "integer":
			ts |= tInt
		case "number":
			ts |= tInt | tNum
		case "string":
			ts |= tStr
		case "array":
			ts |= tArr
		case "object":
			ts |= tObj
		}
	}
	return ts
}

// onlyType reports whether s constrains nothing but the type, and which types it allows.
func onlyType(s *jsonschema.Schema) (typeSet, bool) {
	if s == nil || s.Types == nil || s.Bool != nil {
		return 0, false
	}
	bare := *s
	bare.Types = nil
	bare.Location, bare.DraftVersion, bare.ID = "", 0, ""
	bare.Title, bare.Description, bare.Comment = "", "", ""
	if isEmptySchema(&bare) {
		return fromTypes(s.Types), true
	}
	return 0, false
}

// isEmptySchema reports whether s has no assertion keywords.
func isEmptySchema(s *jsonschema.Schema) bool {
	return s.Ref == nil && s.RecursiveRef == nil && s.DynamicRef == nil && s.Types == nil &&
		s.Enum == nil && s.Const == nil && s.Not == nil && len(s.AllOf) == 0 && len(s.AnyOf) == 0 &&
		len(s.OneOf) == 0 && s.If == nil && s.Format == nil && s.MaxProperties == nil &&
		s.MinProperties == nil && len(s.Required) == 0 && s.PropertyNames == nil &&
		len(s.Properties) == 0 && len(s.PatternProperties) == 0 && s.AdditionalProperties == nil &&
		len(s.Dependencies) == 0 && len(s.DependentRequired) == 0 && len(s.DependentSchemas) == 0 &&
		s.UnevaluatedProperties == nil && s.MinItems == nil && s.MaxItems == nil && !s.UniqueItems &&
		s.Contains == nil && s.Items == nil && s.AdditionalItems == nil && len(s.PrefixItems) == 0 &&
		s.Items2020 == nil && s.UnevaluatedItems == nil && s.MinLength == nil && s.MaxLength == nil &&
		s.Pattern == nil && s.Maximum == nil && s.Minimum == nil && s.ExclusiveMaximum == nil &&
		s.ExclusiveMinimum == nil && s.MultipleOf == nil && len(s.Extensions) == 0
}

// planTypes intersects the types of the conjunction and plans each remaining type.
func (n *node) planTypes() {
	types := tAll
	for _, s := range n.conj {
		if s.Types != nil {
			types &= fromTypes(s.Types)
		}
		if ts, ok := onlyType(s.Not); ok {
			types &^= ts // "not integer" leaves tNum: numbers with a fraction
		}
	}
	if types == 0 {
		n.unsat = "the types allowed by the schemas conflict"
		return
	}
	var reasons []string
	// drop leaves out the type t of the node, with why, when why says it cannot be planned.
	drop := func(t typeSet, name, why string) bool {
		if why == "" {
			return false
		}
		types &^= t
		reasons = append(reasons, name+": "+why)
		return true
	}
	if types&(tInt|tNum) != 0 {
		var why string
		if types, why = n.planNumbers(types); why != "" {
			reasons = append(reasons, "number: "+why)
		}
	}
	if types&tStr != 0 {
		if p, why := planString(n.conj); !drop(tStr, "string", why) {
			n.str = p
			n.check = n.check || p.check
		}
	}
	if types&tArr != 0 {
		if p, why := planArray(n); !drop(tArr, "array", why) {
			n.arr = p
		}
	}
	if types&tObj != 0 {
		if p, why := planObject(n); !drop(tObj, "object", why) {
			n.obj = p
		}
	}
	if types == 0 {
		why := strings.Join(reasons, "; ")
		if strings.Contains(why, cannotConstruct) {
			n.unsat = "no type can be drawn (" + why + ")"
			return
		}
		n.unsat = "no type can satisfy the schema (" + why + ")"
		return
	}
	n.types = types
}

// planNumbers plans the node's numbers: the types left of types once those no number can be
// are taken out, and why when none can.
func (n *node) planNumbers(types typeSet) (typeSet, string) {
	p, why := planNumber(n.conj, types&tNum != 0)
	if why != "" {
		return types &^ (tInt | tNum), why
	}
	n.num = p
	if !p.intOK {
		types &^= tInt
	}
	if !p.fracOK {
		types &^= tNum
	}
	if types&(tInt|tNum) == 0 {
		return types, "no value in range"
	}
	return types, ""
}

// pickType chooses one of the node's types; deep in a recursive value, scalars are preferred.
func (n *node) pickType(t *rapid.T, depth int) typeSet {
	var opts [7]typeSet
	k := 0
	for _, ty := range typeOrder {
		if n.types&ty != 0 {
			opts[k] = ty
			k++
		}
	}
	if k == 1 {
		return opts[0]
	}
	if depth > softDepth && opts[0] != tArr && opts[0] != tObj {
		return opts[0]
	}
	return opts[draw.Int(t, 0, k-1, "type")]
}
