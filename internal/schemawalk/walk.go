package schemawalk

import (
	"slices"
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Each calls fn once for every schema reachable from root (through $ref too), root first.
func Each(root *jsonschema.Schema, fn func(s *jsonschema.Schema)) {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		fn(s)
		for _, c := range Children(s) {
			walk(c)
		}
	}
	walk(root)
}

// Children returns the schemas s refers to directly.
func Children(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	add := func(c *jsonschema.Schema) {
		if c != nil {
			out = append(out, c)
		}
	}
	add(s.Ref)
	add(s.RecursiveRef)
	if s.DynamicRef != nil {
		add(s.DynamicRef.Ref)
	}
	add(s.Not)
	for _, l := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, c := range l {
			add(c)
		}
	}
	add(s.If)
	add(s.Then)
	add(s.Else)
	add(s.PropertyNames)
	for _, c := range s.Properties {
		add(c)
	}
	for _, c := range s.PatternProperties {
		add(c)
	}
	if c, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		add(c)
	}
	for _, d := range s.Dependencies {
		if c, ok := d.(*jsonschema.Schema); ok {
			add(c)
		}
	}
	for _, c := range s.DependentSchemas {
		add(c)
	}
	add(s.UnevaluatedProperties)
	add(s.Contains)
	switch it := s.Items.(type) {
	case *jsonschema.Schema:
		add(it)
	case []*jsonschema.Schema:
		for _, c := range it {
			add(c)
		}
	}
	if c, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
		add(c)
	}
	add(s.Items2020)
	add(s.UnevaluatedItems)
	add(s.ContentSchema)
	return out
}

// Pattern is one patternProperties entry.
type Pattern struct {
	Regexp jsonschema.Regexp
	Schema *jsonschema.Schema
}

// Patterns returns the patternProperties of s sorted by their source, so that walks over them
// are the same from run to run (Go map order is not).
func Patterns(s *jsonschema.Schema) []Pattern {
	if len(s.PatternProperties) == 0 {
		return nil
	}
	out := make([]Pattern, 0, len(s.PatternProperties))
	for re, sch := range s.PatternProperties {
		out = append(out, Pattern{re, sch})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Regexp.String() < out[j].Regexp.String() })
	return out
}

// PropertyNames returns the keys of s.Properties, sorted.
func PropertyNames(s *jsonschema.Schema) []string {
	out := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Conjunction returns the schemas that apply to one instance together with roots: each root,
// what it refers to ($ref, $recursiveRef, $dynamicRef) and its allOf members, transitively, each
// schema once, in that order. branches, when not nil, names more schemas of s to follow (the
// anyOf, oneOf or if/then/else branches a given value takes). Boolean schemas are included.
func Conjunction(roots []*jsonschema.Schema,
	branches func(s *jsonschema.Schema) []*jsonschema.Schema) []*jsonschema.Schema {
	out := make([]*jsonschema.Schema, 0, len(roots)+2)
	var add func(s *jsonschema.Schema)
	add = func(s *jsonschema.Schema) {
		// A conjunction is small: a scan costs less than a set.
		if s == nil || slices.Contains(out, s) {
			return
		}
		out = append(out, s)
		add(s.Ref)
		add(s.RecursiveRef)
		if s.DynamicRef != nil {
			add(s.DynamicRef.Ref)
		}
		for _, a := range s.AllOf {
			add(a)
		}
		if branches != nil {
			for _, b := range branches(s) {
				add(b)
			}
		}
	}
	for _, r := range roots {
		add(r)
	}
	return out
}

// AppendItems appends the schemas sch applies to item i of an array (prefixItems or
// items, and the draft-7 items list with additionalItems).
func AppendItems(out []*jsonschema.Schema, sch *jsonschema.Schema, i int) []*jsonschema.Schema {
	switch {
	case i < len(sch.PrefixItems):
		out = append(out, sch.PrefixItems[i])
	case sch.Items2020 != nil:
		out = append(out, sch.Items2020)
	}
	switch it := sch.Items.(type) {
	case *jsonschema.Schema:
		out = append(out, it)
	case []*jsonschema.Schema:
		if i < len(it) {
			out = append(out, it[i])
		} else if add, ok := sch.AdditionalItems.(*jsonschema.Schema); ok {
			out = append(out, add)
		}
	}
	return out
}

// AppendMember appends the schemas sch applies to the member k of an object: its property k,
// the patternProperties whose pattern matches k, and additionalProperties when neither does.
func AppendMember(out []*jsonschema.Schema, sch *jsonschema.Schema, k string) []*jsonschema.Schema {
	in := false
	if p, ok := sch.Properties[k]; ok {
		out = append(out, p)
		in = true
	}
	for _, pp := range Patterns(sch) {
		if pp.Regexp.MatchString(k) {
			out = append(out, pp.Schema)
			in = true
		}
	}
	if ap, ok := sch.AdditionalProperties.(*jsonschema.Schema); ok && !in {
		out = append(out, ap)
	}
	return out
}
