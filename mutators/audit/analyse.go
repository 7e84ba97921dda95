package audit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
	"github.com/toolproof/toolproof/internal/uniq"
	"github.com/toolproof/toolproof/mutators"
)

// hypothesis is what the schema's keywords suggest at one place: the class is caught there or
// passes, and why. The witnesses decide (see Tool); a hypothesis is never reported unchecked.
type hypothesis struct {
	Class  corpus.Class
	Path   string // a JSON Pointer where "*" stands for any array index or map key
	Passes bool
	Why    string
	// unconstrained: it passes only because the place declares nothing for the class to leave
	unconstrained bool
	required      []string // object places: the names the object requires
	declared      []string // object places: the names it declares
}

// analyse reads one compiled schema and returns its hypotheses: at each place, what each
// class's audit hints make of it, sorted by class (in the registry's order) then path.
func analyse(root *jsonschema.Schema, reg *mutators.Registry) []hypothesis {
	a := &auditor{defs: reg.Definitions(), seen: map[*jsonschema.Schema]bool{}, index: map[hypothesisKey]int{}}
	a.walk(root, "", true)
	order := map[corpus.Class]int{}
	for i, c := range reg.Classes() {
		order[c] = i
	}
	sort.SliceStable(a.out, func(i, j int) bool {
		ci, cj := order[a.out[i].Class], order[a.out[j].Class]
		if ci != cj {
			return ci < cj
		}
		return a.out[i].Path < a.out[j].Path
	})
	return a.out
}

type auditor struct {
	defs  []mutators.Definition
	seen  map[*jsonschema.Schema]bool
	out   []hypothesis
	index map[hypothesisKey]int // where each hypothesis is in out
}

// hypothesisKey tells one hypothesis from another: the same class, place, verdict and reason
// are one hypothesis, whose names are merged.
type hypothesisKey struct {
	class  corpus.Class
	path   string
	passes bool
	why    string
}

// add records what class c's hint h says at path: the class passes there or is caught, why,
// whether only because the place is unconstrained, and at an object place the names it
// requires and declares.
func (a *auditor) add(c corpus.Class, path string, h mutators.Hint) {
	k := hypothesisKey{c, path, h.Passes, h.Why}
	if i, ok := a.index[k]; ok {
		a.out[i].unconstrained = a.out[i].unconstrained || h.Unconstrained
		a.out[i].required = uniq.Of(append(a.out[i].required, h.Required...))
		a.out[i].declared = uniq.Of(append(a.out[i].declared, h.Declared...))
		return
	}
	a.index[k] = len(a.out)
	a.out = append(a.out, hypothesis{Class: c, Path: path, Passes: h.Passes, Why: h.Why, unconstrained: h.Unconstrained,
		required: h.Required, declared: h.Declared})
}

// conj expands $ref and allOf.
func conj(s *jsonschema.Schema) []*jsonschema.Schema {
	return schemawalk.Conjunction([]*jsonschema.Schema{s}, nil)
}

// types returns the JSON types allowed by the conjunction (nil: any), counting enum and const.
func types(cs []*jsonschema.Schema) map[string]bool {
	var out map[string]bool
	narrow := func(set map[string]bool) {
		if out == nil {
			out = set
			return
		}
		for t := range out {
			if !set[t] {
				delete(out, t)
			}
		}
	}
	for _, s := range cs {
		if s.Types != nil {
			set := map[string]bool{}
			for _, t := range s.Types.ToStrings() {
				set[t] = true
				if t == "number" {
					set["integer"] = true
				}
			}
			narrow(set)
		}
		var vals []any
		if s.Enum != nil {
			vals = s.Enum.Values
		}
		if s.Const != nil {
			vals = []any{*s.Const}
		}
		if vals != nil {
			set := map[string]bool{}
			for _, v := range vals {
				t := jsonvalue.TypeName(v)
				set[t] = true
				if t == "number" {
					set["integer"] = true
				}
			}
			narrow(set)
		}
	}
	return out
}

// effectiveTypes is types narrowed by the alternatives: a value must match some branch of
// every anyOf and oneOf, so it has one of the types the branches allow.
func effectiveTypes(cs []*jsonschema.Schema) map[string]bool {
	ts := types(cs)
	for _, x := range cs {
		alts := append(append([]*jsonschema.Schema{}, x.AnyOf...), x.OneOf...)
		if len(alts) == 0 {
			continue
		}
		union := map[string]bool{}
		for _, b := range alts {
			bt := types(conj(b))
			if bt == nil {
				union = nil
				break
			}
			for t := range bt {
				union[t] = true
			}
		}
		if union == nil {
			continue
		}
		if ts == nil {
			ts = union
			continue
		}
		for t := range ts {
			if !union[t] {
				delete(ts, t)
			}
		}
	}
	return ts
}

func typeList(ts map[string]bool) string {
	var l []string
	for t := range ts {
		if t == "integer" && ts["number"] {
			continue
		}
		l = append(l, t)
	}
	sort.Strings(l)
	if len(l) == 1 {
		return l[0]
	}
	return "[" + strings.Join(l, ", ") + "]"
}

func (a *auditor) walk(s *jsonschema.Schema, path string, root bool) {
	a.walkWith(s, nil, path, root)
}

// walkWith audits the place where a value must match s and every schema of with (the place's
// own schemas, when s is one of its alternatives).
func (a *auditor) walkWith(s *jsonschema.Schema, with []*jsonschema.Schema, path string, root bool) {
	if s == nil || a.seen[s] {
		return
	}
	a.seen[s] = true
	defer delete(a.seen, s)
	cs := append(conj(s), with...)
	// Alternatives: audit each branch at the same place, together with the place's schemas.
	alts := 0
	for _, x := range conj(s) {
		for _, b := range append(append([]*jsonschema.Schema{}, x.AnyOf...), x.OneOf...) {
			alts++
			a.walkWith(b, cs, path, root)
		}
		for _, b := range []*jsonschema.Schema{x.Then, x.Else} {
			if b != nil {
				alts++
				a.walkWith(b, cs, path, root)
			}
		}
	}
	if alts > 0 && with == nil {
		// The branches, each with this place's schemas, say it all.
		return
	}
	p := &mutators.SchemaPlace{Path: path, Where: path, Desc: "untyped", Root: root, Types: effectiveTypes(cs)}
	if p.Where == "" {
		p.Where = "the root"
	}
	if p.Types != nil {
		p.Desc = "typed " + typeList(p.Types)
	}
	if !root {
		p.Constraints = constraints(cs, p.Types)
	}
	var sh objectShape
	if p.May("object") {
		sh = objectShapeOf(cs)
		p.Object = sh.place(root)
	}
	if p.May("array") {
		p.Array = isArray(cs)
	}
	for _, d := range a.defs {
		if d.Audit.Analyse == nil {
			continue
		}
		for _, h := range d.Audit.Analyse(p) {
			a.add(d.Name, path, h)
		}
	}
	if p.Object != nil {
		a.members(cs, sh, path)
	}
	if p.May("array") {
		a.items(cs, path)
	}
}

// constraints are the keywords of the place's schemas a value may break, each once; "integer"
// for an integer type. ts is the place's types (nil: any).
func constraints(cs []*jsonschema.Schema, ts map[string]bool) []string {
	var kws []string
	has := func(kw string, ok bool) {
		if ok {
			kws = append(kws, kw)
		}
	}
	for _, s := range cs {
		has("enum", s.Enum != nil)
		has("const", s.Const != nil)
		has("minimum", s.Minimum != nil)
		has("maximum", s.Maximum != nil)
		has("exclusiveMinimum", s.ExclusiveMinimum != nil)
		has("exclusiveMaximum", s.ExclusiveMaximum != nil)
		has("multipleOf", s.MultipleOf != nil)
		has("minLength", s.MinLength != nil && *s.MinLength > 0)
		has("maxLength", s.MaxLength != nil)
		has("pattern", s.Pattern != nil)
		has("format", s.Format != nil)
		has("minItems", s.MinItems != nil && *s.MinItems > 0)
		has("maxItems", s.MaxItems != nil)
		has("uniqueItems", s.UniqueItems)
	}
	if ts != nil && ts["integer"] && !ts["number"] {
		kws = append(kws, "integer")
	}
	return uniq.Of(kws)
}

// members walks the schemas of an object place's members: each declared name, then the
// patternProperties and additionalProperties schemas.
func (a *auditor) members(cs []*jsonschema.Schema, sh objectShape, path string) {
	for _, k := range sh.keys() {
		a.walk(sh.declared[k], path+"/"+jsonvalue.EscapeToken(k), false)
	}
	for _, s := range cs {
		for _, pp := range schemawalk.Patterns(s) {
			a.walk(pp.Schema, path+"/*", false)
		}
		if ap, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			a.walk(ap, path+"/*", false)
		}
	}
}

// objectShape is what the schemas at one place say of an object: closed (and by which
// keyword), a map, keys restricted by propertyNames, the required names, the declared ones.
type objectShape struct {
	closed       string
	mapOf, names bool
	required     []string
	declared     map[string]*jsonschema.Schema
}

// keys are the declared names, sorted.
func (sh objectShape) keys() []string {
	keys := make([]string, 0, len(sh.declared))
	for k := range sh.declared {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// place is the shape as the classes' audit hints read it; nil when the place declares no
// object in practice (nothing declared, required, mapped or closed), unless it is the root.
func (sh objectShape) place(root bool) *mutators.ObjectShape {
	if len(sh.declared) == 0 && len(sh.required) == 0 && !sh.mapOf && sh.closed == "" && !root {
		return nil
	}
	return &mutators.ObjectShape{Closed: sh.closed, Map: sh.mapOf, Names: sh.names, Required: uniq.Of(sh.required),
		Declared: sh.keys()}
}

func objectShapeOf(cs []*jsonschema.Schema) objectShape {
	sh := objectShape{declared: map[string]*jsonschema.Schema{}}
	for _, s := range cs {
		switch ap := s.AdditionalProperties.(type) {
		case bool:
			if !ap {
				sh.closed = "additionalProperties: false"
			}
		case *jsonschema.Schema:
			if ap.Bool != nil && !*ap.Bool {
				sh.closed = "additionalProperties: false"
			} else {
				sh.mapOf = true
			}
		}
		if s.UnevaluatedProperties != nil && s.UnevaluatedProperties.Bool != nil &&
			!*s.UnevaluatedProperties.Bool && sh.closed == "" {
			sh.closed = "unevaluatedProperties: false"
		}
		if s.PropertyNames != nil {
			sh.names = true
		}
		sh.required = append(sh.required, s.Required...)
		for _, k := range schemawalk.PropertyNames(s) {
			if sh.declared[k] == nil {
				sh.declared[k] = s.Properties[k]
			}
		}
	}
	return sh
}

// isArray reports whether the place's schemas declare array items.
func isArray(cs []*jsonschema.Schema) bool {
	for _, s := range cs {
		if len(s.PrefixItems) > 0 || s.Items2020 != nil || s.Items != nil {
			return true
		}
	}
	return false
}

// items walks the schemas of an array place's items.
func (a *auditor) items(cs []*jsonschema.Schema, path string) {
	for _, s := range cs {
		for i, p := range s.PrefixItems {
			a.walk(p, fmt.Sprintf("%s/%d", path, i), false)
		}
		if s.Items2020 != nil {
			a.walk(s.Items2020, path+"/*", false)
		}
		switch it := s.Items.(type) {
		case *jsonschema.Schema:
			a.walk(it, path+"/*", false)
		case []*jsonschema.Schema:
			for i, p := range it {
				a.walk(p, fmt.Sprintf("%s/%d", path, i), false)
			}
		}
	}
}
