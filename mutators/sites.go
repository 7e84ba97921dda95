package mutators

import (
	"math/big"
	"slices"
	"sort"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

// site is one place in a valid value with the schemas that apply there: $ref targets and allOf
// members expanded, and the anyOf/oneOf/if branches the value actually satisfies.
type site struct {
	path    string // the JSON Pointer of the place (its tokens: tokens())
	value   any
	schemas []*jsonschema.Schema
	parent  *site
	name    string // property name or array index in the parent
	// start and end are where the value's text lies in the Target's Text.
	start, end int
	required   bool // a required property of its parent

	typesDone bool
	typesSet  typeSet
	mayDone   bool
	maySet    typeSet // the types mayBe allows (its enum's, else its types)
	enumDone  bool
	enumVals  []any
}

// annotate returns the sites of v, in pre-order with object keys sorted, and v's canonical text
// (jsonvalue.Marshal's), written in the same walk so that each site knows where its value's
// text starts and ends.
func annotate(root *jsonschema.Schema, v any) ([]*site, []byte) {
	// Sites are allocated in blocks, not one by one, each twice the last (up to 64).
	an := &annotator{block: make([]site, 0, 4)}
	an.walk(&site{value: v, schemas: expandFor([]*jsonschema.Schema{root}, v)}, 0)
	return an.out, an.text
}

// annotator is one walk of annotate: the sites so far, in order, and the text written.
type annotator struct {
	out   []*site
	text  []byte
	block []site // where new sites are allocated
}

func (an *annotator) newSite() *site {
	if len(an.block) == cap(an.block) {
		an.block = make([]site, 0, min(2*cap(an.block), 64))
	}
	an.block = an.block[:len(an.block)+1]
	return &an.block[len(an.block)-1]
}

// walk adds s and the sites under it, and writes the text of its value.
func (an *annotator) walk(s *site, depth int) {
	an.out = append(an.out, s)
	s.start = len(an.text)
	switch val := s.value.(type) {
	case map[string]any:
		if depth <= 64 {
			an.members(s, val, depth)
			break
		}
		an.text = mustAppend(an.text, s.value)
	case []any:
		if depth <= 64 {
			an.items(s, val, depth)
			break
		}
		an.text = mustAppend(an.text, s.value)
	default:
		an.text = mustAppend(an.text, s.value)
	}
	s.end = len(an.text)
}

// members walks the members of the object at s, in key order.
func (an *annotator) members(s *site, val map[string]any, depth int) {
	keys := make([]string, 0, len(val))
	for k := range val {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	an.text = append(an.text, '{')
	for i, k := range keys {
		if i > 0 {
			an.text = append(an.text, ',')
		}
		an.text = append(jsonvalue.AppendString(an.text, k), ':')
		var roots []*jsonschema.Schema
		for _, sch := range s.schemas {
			roots = schemawalk.AppendMember(roots, sch, k)
		}
		child := an.newSite()
		*child = site{path: s.path + "/" + jsonvalue.EscapeToken(k),
			value: val[k], parent: s, name: k, required: requires(s.schemas, k)}
		child.schemas = expandFor(roots, val[k])
		an.walk(child, depth+1)
	}
	an.text = append(an.text, '}')
}

// items walks the items of the array at s.
func (an *annotator) items(s *site, val []any, depth int) {
	an.text = append(an.text, '[')
	for i, e := range val {
		if i > 0 {
			an.text = append(an.text, ',')
		}
		var roots []*jsonschema.Schema
		for _, sch := range s.schemas {
			roots = schemawalk.AppendItems(roots, sch, i)
		}
		idx := strconv.Itoa(i)
		child := an.newSite()
		*child = site{path: s.path + "/" + idx, value: e, parent: s, name: idx}
		child.schemas = expandFor(roots, e)
		an.walk(child, depth+1)
	}
	an.text = append(an.text, ']')
}

// mustAppend appends v's canonical text; v is a value the oracle accepted, so it has one.
func mustAppend(dst []byte, v any) []byte {
	out, err := jsonvalue.Append(dst, v)
	if err != nil {
		panic(err)
	}
	return out
}

// requires reports whether one of schemas requires the property k.
func requires(schemas []*jsonschema.Schema, k string) bool {
	for _, sch := range schemas {
		if slices.Contains(sch.Required, k) {
			return true
		}
	}
	return false
}

// tokens returns the JSON Pointer tokens of s's place, from the root down.
func (s *site) tokens() []string {
	n := 0
	for p := s; p.parent != nil; p = p.parent {
		n++
	}
	toks := make([]string, n)
	for p := s; p.parent != nil; p = p.parent {
		n--
		toks[n] = p.name
	}
	return toks
}

// expandFor returns roots with $ref targets and allOf members, plus the branches of anyOf,
// oneOf and if/then/else that v satisfies (of an alternative none satisfies, those that take
// v's type); boolean schemas are left out.
func expandFor(roots []*jsonschema.Schema, v any) []*jsonschema.Schema {
	if len(roots) == 1 && plainSchema(roots[0]) {
		return roots // most places: one schema that refers to nothing and has no branches
	}
	all := schemawalk.Conjunction(roots, func(s *jsonschema.Schema) []*jsonschema.Schema {
		if s.Bool != nil {
			return nil
		}
		var out []*jsonschema.Schema
		for _, bs := range [2][]*jsonschema.Schema{s.AnyOf, s.OneOf} {
			n := len(out)
			for _, b := range bs {
				if b.Validate(v) == nil {
					out = append(out, b)
				}
			}
			if len(out) == n {
				// No branch takes v (an invalid value, as recognition reads it): those that
				// take its type say what was meant.
				out = append(out, admitting(bs, v)...)
			}
		}
		if s.If != nil {
			if s.If.Validate(v) == nil {
				out = append(out, s.If, s.Then)
			} else {
				out = append(out, s.Else)
			}
		}
		return out
	})
	out := all[:0]
	for _, s := range all {
		if s.Bool == nil {
			out = append(out, s)
		}
	}
	return out
}

// plainSchema reports whether s is a schema object with nothing for expandFor to expand.
func plainSchema(s *jsonschema.Schema) bool {
	return s != nil && s.Bool == nil && s.Ref == nil && s.RecursiveRef == nil && s.DynamicRef == nil &&
		len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.If == nil
}

// ---- what the schemas at a site say

// typeSet is a set of JSON Schema type names, or "any type" (no schema at the place names one).
type typeSet uint16

const knownTypes typeSet = 1 << 15 // some schema names types: the bits below say which

// typeBit is the bit of one type name.
func typeBit(t string) typeSet {
	switch t {
	case "null":
		return 1
	case "boolean":
		return 2
	case "object":
		return 4
	case "array":
		return 8
	case "number":
		return 16
	case "string":
		return 32
	case "integer":
		return 64
	}
	return 0
}

// known reports whether the set is not "any type".
func (ts typeSet) known() bool { return ts&knownTypes != 0 }

// has reports whether the set names type t (false for "any type": ask known first).
func (ts typeSet) has(t string) bool { return ts.known() && ts&typeBit(t) != 0 }

// types is the intersection of the types the schemas at s name ("number" brings "integer"
// with it), computed once.
func (s *site) types() typeSet {
	if !s.typesDone {
		s.typesSet, s.typesDone = s.computeTypes(), true
	}
	return s.typesSet
}

func (s *site) computeTypes() typeSet {
	out := typeSet(0)
	for _, sch := range s.schemas {
		if sch.Types == nil {
			continue
		}
		set := knownTypes
		for _, t := range sch.Types.ToStrings() {
			set |= typeBit(t)
			if t == "number" {
				set |= typeBit("integer")
			}
		}
		if !out.known() {
			out = set
			continue
		}
		out &= set
	}
	return out
}

// mayBe reports whether the schemas at s may allow a value of JSON type ty ("integer" counts
// as "number"): they name no type and no enum, or name it. Computed once per site.
func (s *site) mayBe(ty string) bool {
	if !s.mayDone {
		s.maySet, s.mayDone = s.computeMay(), true
	}
	return !s.maySet.known() || s.maySet.has(ty)
}

func (s *site) computeMay() typeSet {
	if enum := s.enum(); enum != nil {
		set := knownTypes
		for _, e := range enum {
			set |= typeBit(jsonvalue.TypeName(e))
		}
		return set
	}
	return s.types()
}

func (s *site) enum() []any {
	if !s.enumDone {
		s.enumVals, s.enumDone = s.computeEnum(), true
	}
	return s.enumVals
}

func (s *site) computeEnum() []any {
	for _, sch := range s.schemas {
		if sch.Enum != nil {
			return sch.Enum.Values
		}
		if sch.Const != nil {
			return []any{*sch.Const}
		}
	}
	return nil
}

func (s *site) intField(get func(*jsonschema.Schema) *int, pickMax bool) (int, bool) {
	best, found := 0, false
	for _, sch := range s.schemas {
		if p := get(sch); p != nil {
			if !found || (pickMax && *p > best) || (!pickMax && *p < best) {
				best, found = *p, true
			}
		}
	}
	return best, found
}

func (s *site) ratField(get func(*jsonschema.Schema) *big.Rat, pickMax bool) (*big.Rat, bool) {
	var best *big.Rat
	for _, sch := range s.schemas {
		if r := get(sch); r != nil {
			if best == nil || (pickMax && r.Cmp(best) > 0) || (!pickMax && r.Cmp(best) < 0) {
				best = r
			}
		}
	}
	return best, best != nil
}

// restrictsKeys reports whether some schema at s limits which keys an object may have.
func (s *site) restrictsKeys() bool {
	for _, sch := range s.schemas {
		switch ap := sch.AdditionalProperties.(type) {
		case bool:
			if !ap {
				return true
			}
		case *jsonschema.Schema:
			if ap.Bool != nil && !*ap.Bool {
				return true
			}
		}
		if sch.UnevaluatedProperties != nil || sch.PropertyNames != nil {
			return true
		}
	}
	return false
}

func (s *site) declared() map[string]bool {
	out := map[string]bool{}
	for _, sch := range s.schemas {
		for k := range sch.Properties {
			out[k] = true
		}
	}
	return out
}

func (s *site) requiredNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, sch := range s.schemas {
		for _, r := range sch.Required {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	sort.Strings(out)
	return out
}

// ---- editing values without touching the original

// edited returns a copy of root with fn applied to a copy of the container at toks.
func editedObject(root any, toks []string, fn func(m map[string]any)) any {
	cur, _ := jsonvalue.Get(root, jsonvalue.Pointer(toks))
	obj, ok := cur.(map[string]any)
	if !ok {
		return root
	}
	m := make(map[string]any, len(obj)+1)
	for k, e := range obj {
		m[k] = e
	}
	fn(m)
	return jsonvalue.Replaced(root, toks, m)
}

// nonRoot returns the sites below the root whose value passes keep.
func nonRoot(tg *Target, keep func(s *site) bool) []*site {
	var out []*site
	for _, s := range tg.sites {
		if s.parent != nil && keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// describe names the place of s in a reason: "the arguments" for the root.
func describe(s *site) string { return where(s.path) }
