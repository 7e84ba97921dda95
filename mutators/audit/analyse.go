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
	Class    corpus.Class
	Path     string // a JSON Pointer where "*" stands for any array index or map key
	Passes   bool
	Why      string
	required []string // object places: the names the object requires
	declared []string // object places: the names it declares
}

// analyse reads one compiled schema and returns its hypotheses, sorted by class then path.
func analyse(root *jsonschema.Schema) []hypothesis {
	a := &auditor{seen: map[*jsonschema.Schema]bool{}, index: map[hypothesisKey]int{}}
	a.walk(root, "", true)
	a.add(mutators.RootNotObject, "", false, "the parse gate requires a plain object, whatever the schema says")
	a.add(mutators.MalformedJSON, "", false, "the parse gate requires JSON text (RFC 8259)")
	sort.SliceStable(a.out, func(i, j int) bool {
		ci, cj := classIndex(a.out[i].Class), classIndex(a.out[j].Class)
		if ci != cj {
			return ci < cj
		}
		return a.out[i].Path < a.out[j].Path
	})
	return a.out
}

func classIndex(c corpus.Class) int {
	for i, x := range mutators.Classes() {
		if x == c {
			return i
		}
	}
	return 99
}

type auditor struct {
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

func (a *auditor) add(c corpus.Class, path string, passes bool, why string) {
	a.addObject(c, path, passes, why, nil, nil)
}

// addObject is add with the names an object place requires and declares.
func (a *auditor) addObject(c corpus.Class, path string, passes bool, why string, required, declared []string) {
	k := hypothesisKey{c, path, passes, why}
	if i, ok := a.index[k]; ok {
		a.out[i].required = uniq.Of(append(a.out[i].required, required...))
		a.out[i].declared = uniq.Of(append(a.out[i].declared, declared...))
		return
	}
	a.index[k] = len(a.out)
	a.out = append(a.out, hypothesis{Class: c, Path: path, Passes: passes, Why: why, required: required, declared: declared})
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
	ts := effectiveTypes(cs)
	may := func(t string) bool { return ts == nil || ts[t] }
	where := path
	if where == "" {
		where = "the root"
	}
	desc := "untyped"
	if ts != nil {
		desc = "typed " + typeList(ts)
	}
	if !root {
		a.scalar(ts, path, where, desc)
	}
	a.constraints(cs, ts, path, where, desc, root)
	if may("object") {
		a.object(cs, path, where, root)
	}
	if may("array") {
		a.array(cs, path, where)
	}
}

// scalar audits the distortions of a value below the root at one place: stringified, null,
// wrong type, wrapped in an array, JSON in a string. ts is the place's types (nil: any).
func (a *auditor) scalar(ts map[string]bool, path, where, desc string) {
	may := func(t string) bool { return ts == nil || ts[t] }
	if ts != nil && (ts["number"] || ts["integer"] || ts["boolean"] || ts["null"]) {
		if may("string") {
			a.add(mutators.StringifiedType, path, true, fmt.Sprintf("%s is %s: a number or boolean written as a string passes", where, desc))
		} else {
			a.add(mutators.StringifiedType, path, false, fmt.Sprintf("%s is %s: a string there is rejected", where, desc))
		}
	}
	if may("null") {
		a.add(mutators.NullValue, path, true, fmt.Sprintf("%s is %s: null passes", where, desc))
	} else {
		a.add(mutators.NullValue, path, false, fmt.Sprintf("%s is %s: null is rejected", where, desc))
	}
	if ts == nil {
		a.add(mutators.WrongType, path, true, where+" has no type: a value of any type passes")
	} else {
		a.add(mutators.WrongType, path, false, fmt.Sprintf("%s is %s: other types are rejected", where, desc))
	}
	if ts != nil && !ts["object"] && !ts["array"] {
		if may("array") {
			a.add(mutators.WrappedScalar, path, true, fmt.Sprintf("%s is %s: [x] passes", where, desc))
		} else {
			a.add(mutators.WrappedScalar, path, false, fmt.Sprintf("%s is %s: [x] is rejected", where, desc))
		}
	}
	if ts != nil && (ts["object"] || ts["array"]) {
		if may("string") {
			a.add(mutators.JSONInString, path, true, fmt.Sprintf("%s is %s: JSON encoded into a string passes", where, desc))
		} else {
			a.add(mutators.JSONInString, path, false, fmt.Sprintf("%s is %s: a JSON-encoded string is rejected", where, desc))
		}
	}
}

// constraints audits out_of_range_enum at one place.
func (a *auditor) constraints(cs []*jsonschema.Schema, ts map[string]bool, path, where, desc string, root bool) {
	if root {
		return
	}
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
	switch {
	case len(kws) > 0:
		a.add(mutators.OutOfRangeEnum, path, false, fmt.Sprintf("%s has %s to break", where, strings.Join(uniq.Of(kws), ", ")))
	case ts != nil && ts["string"] && len(ts) == 1:
		a.add(mutators.OutOfRangeEnum, path, true, where+" is a free string: no enum, pattern or length to leave")
	case ts != nil && (ts["number"] || ts["integer"]):
		a.add(mutators.OutOfRangeEnum, path, true, fmt.Sprintf("%s is %s without bounds: any number passes", where, desc))
	}
}

func (a *auditor) object(cs []*jsonschema.Schema, path, where string, root bool) {
	sh := objectShapeOf(cs)
	closed, mapOf, names, required, declared := sh.closed, sh.mapOf, sh.names, sh.required, sh.declared
	if len(declared) == 0 && len(required) == 0 && !mapOf && closed == "" && !root {
		return // not an object place in practice
	}
	keys := make([]string, 0, len(declared))
	for k := range declared {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	switch {
	case closed != "":
		a.addObject(mutators.HallucinatedKey, path, false, fmt.Sprintf("%s is closed (%s): unknown keys are rejected", where, closed), nil, keys)
	case names:
		a.addObject(mutators.HallucinatedKey, path, false, where+" restricts its keys with propertyNames", nil, keys)
	case mapOf:
		a.addObject(mutators.HallucinatedKey, path, true, where+" is a map (additionalProperties is a schema): any key with a valid value passes", nil, keys)
	default:
		a.addObject(mutators.HallucinatedKey, path, true, where+" is an open object: invented keys pass", nil, keys)
	}
	if len(required) > 0 {
		a.addObject(mutators.MissingRequired, path, false, fmt.Sprintf("%s requires %s", where, strings.Join(uniq.Of(required), ", ")), uniq.Of(required), keys)
	} else if len(declared) > 0 {
		a.addObject(mutators.MissingRequired, path, true, where+" requires nothing: leaving properties out passes", uniq.Of(required), keys)
	}
	if root {
		if closed != "" || len(required) > 0 {
			a.add(mutators.WrapperNesting, "", false, `the root is closed or requires properties: {"arguments": {...}} is rejected`)
		} else {
			a.add(mutators.WrapperNesting, "", true, `the root is open and requires nothing: {"arguments": {...}} passes`)
		}
	}
	for _, k := range keys {
		a.walk(declared[k], path+"/"+jsonvalue.EscapeToken(k), false)
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
		if s.UnevaluatedProperties != nil && s.UnevaluatedProperties.Bool != nil && !*s.UnevaluatedProperties.Bool && sh.closed == "" {
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

func (a *auditor) array(cs []*jsonschema.Schema, path, where string) {
	isArray := false
	for _, s := range cs {
		for i, p := range s.PrefixItems {
			isArray = true
			a.walk(p, fmt.Sprintf("%s/%d", path, i), false)
		}
		if s.Items2020 != nil {
			isArray = true
			a.walk(s.Items2020, path+"/*", false)
		}
		switch it := s.Items.(type) {
		case *jsonschema.Schema:
			isArray = true
			a.walk(it, path+"/*", false)
		case []*jsonschema.Schema:
			isArray = true
			for i, p := range it {
				a.walk(p, fmt.Sprintf("%s/%d", path, i), false)
			}
		}
	}
	if !isArray {
		return
	}
	ts := effectiveTypes(cs)
	if ts == nil || ts["string"] || ts["object"] {
		a.add(mutators.FlattenedArray, path, true, where+" also allows a string or an object: a flattened array may pass")
	} else {
		a.add(mutators.FlattenedArray, path, false, where+" is an array only: \"a,b\" or a lone item is rejected")
	}
}
