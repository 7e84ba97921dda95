package oracle

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/pattern"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

// Where multipleOf divides. Floating-point division changes a verdict only for a number that
// some multipleOf applies to, so a number is tried against the multipleOf values of the schemas
// that may apply at its place, not against every one of the schema. A place is described by
// the schemas that may apply there, whatever the value: $ref targets, allOf, and every branch of
// anyOf, oneOf, not, if/then/else and dependentSchemas (which branch a gate takes may itself
// change when it divides doubles). Where that cannot be told statically (a $dynamicRef or
// $recursiveRef, an extension keyword, a key a regex dialect may match differently, a schema
// too large to describe), every number under the place is tried against every multipleOf, as
// before: the rule may mark more cases than needed, never fewer.

// maxPlaces bounds the places described for one schema; past it, places are unsure.
const maxPlaces = 4096

// place is what may apply at one place of a value.
type place struct {
	multiples []*big.Rat // the multipleOf values of the schemas that may apply here
	below     bool       // some multipleOf may apply here or under this place
	unsure    bool       // which schemas apply cannot be told: try every multipleOf of the schema

	props      map[string]*place // the place of a key some schema here declares
	other      *place            // the place of any other key (nil: no schema applies there)
	patterns   []jsonschema.Regexp
	otherMatch *place   // of any other key a pattern matches, or that a dialect may read otherwise
	items      []*place // of the items inside the longest prefix
	rest       *place   // of the items after it
}

// placer describes the places of one schema, each set of schemas once.
type placer struct {
	reach map[*jsonschema.Schema]bool // a multipleOf is reachable from the schema
	memo  map[string]*place
}

// newPlaces describes the places of a value where root applies, from the root down (nil: root
// is a boolean schema).
func newPlaces(root *jsonschema.Schema) *place {
	p := &placer{reach: map[*jsonschema.Schema]bool{}, memo: map[string]*place{}}
	// reach, to a fixpoint: a schema reaches a multipleOf when it has one or a child reaches one.
	var all []*jsonschema.Schema
	children := map[*jsonschema.Schema][]*jsonschema.Schema{}
	schemawalk.Each(root, func(s *jsonschema.Schema) {
		all = append(all, s)
		children[s] = schemawalk.Children(s)
		// A $dynamicRef may jump to a subschema no walk reaches: count it as reaching one.
		if s.MultipleOf != nil || s.DynamicRef != nil || s.RecursiveRef != nil {
			p.reach[s] = true
		}
	})
	for changed := true; changed; {
		changed = false
		for _, s := range all {
			if p.reach[s] {
				continue
			}
			for _, c := range children[s] {
				if p.reach[c] {
					p.reach[s], changed = true, true
					break
				}
			}
		}
	}
	return p.place([]*jsonschema.Schema{root})
}

// sameInstance names the schemas of s that apply to the same instance, whatever it is (Conjunction
// adds $ref targets and allOf).
func sameInstance(s *jsonschema.Schema) []*jsonschema.Schema {
	out := make([]*jsonschema.Schema, 0, len(s.AnyOf)+len(s.OneOf)+4)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	out = append(out, s.Not, s.If, s.Then, s.Else)
	for _, k := range sortedNames(s.DependentSchemas) {
		out = append(out, s.DependentSchemas[k])
	}
	for _, k := range sortedNames(s.Dependencies) {
		if c, ok := s.Dependencies[k].(*jsonschema.Schema); ok {
			out = append(out, c)
		}
	}
	return out
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// place describes the place where roots apply.
func (p *placer) place(roots []*jsonschema.Schema) *place {
	all := schemawalk.Conjunction(roots, sameInstance)
	set := all[:0]
	for _, s := range all {
		if s.Bool == nil {
			set = append(set, s)
		}
	}
	if len(set) == 0 {
		return nil
	}
	// The set's identity: its schemas' addresses (a Location may not tell two schemas apart).
	ids := make([]string, len(set))
	for i, s := range set {
		ids[i] = fmt.Sprintf("%p", s)
	}
	sort.Strings(ids)
	key := strings.Join(ids, " ")
	if pl, ok := p.memo[key]; ok {
		return pl
	}
	pl := &place{}
	p.memo[key] = pl // before the children: a recursive schema comes back here
	for _, s := range set {
		pl.below = pl.below || p.reach[s]
		if s.MultipleOf != nil {
			pl.multiples = append(pl.multiples, s.MultipleOf)
		}
		if s.DynamicRef != nil || s.RecursiveRef != nil || len(s.Extensions) > 0 {
			pl.unsure = true
		}
	}
	if len(p.memo) > maxPlaces {
		pl.unsure = true
	}
	if pl.unsure {
		// Anything may apply here, a multipleOf the walk does not reach too (one a $dynamicRef
		// jumps to, known only by its $dynamicAnchor).
		pl.below = true
	}
	if !pl.below || pl.unsure {
		return pl // nothing divides under here, or anything may
	}
	p.objectPlaces(pl, set)
	p.arrayPlaces(pl, set)
	return pl
}

// objectPlaces describes the places of the keys of an object where set applies.
func (p *placer) objectPlaces(pl *place, set []*jsonschema.Schema) {
	var names []string
	var unevaluated []*jsonschema.Schema // applies to every key (the evaluated ones depend on the value)
	for _, s := range set {
		for k := range s.Properties {
			if !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
		for _, pp := range schemawalk.Patterns(s) {
			pl.patterns = append(pl.patterns, pp.Regexp)
			if len(pattern.Problems(pp.Regexp.String())) > 0 {
				// Syntax only some dialects have: which keys it matches cannot be told, so
				// every multipleOf is tried under this object.
				pl.unsure = true
			}
		}
		if s.UnevaluatedProperties != nil {
			unevaluated = append(unevaluated, s.UnevaluatedProperties)
		}
	}
	sort.Strings(names)
	// roots are the schemas at the place of key k (declared: a name some schema of set
	// declares; otherwise a key that none declares and no pattern matches); all: every pattern
	// and additionalProperties apply too, as they may for a key a dialect reads otherwise.
	roots := func(k string, declared, all bool) []*jsonschema.Schema {
		out := append([]*jsonschema.Schema{}, unevaluated...)
		for _, s := range set {
			matched := false
			if c, ok := s.Properties[k]; ok && declared {
				out = append(out, c)
				matched = true
			}
			for _, pp := range schemawalk.Patterns(s) {
				if all || (declared && pp.Regexp.MatchString(k)) {
					out = append(out, pp.Schema)
					matched = true
				}
			}
			if ap, ok := s.AdditionalProperties.(*jsonschema.Schema); ok && (all || !matched) {
				out = append(out, ap)
			}
		}
		return out
	}
	if len(names) > 0 {
		pl.props = make(map[string]*place, len(names))
		for _, k := range names {
			pl.props[k] = p.place(roots(k, true, !plainKey(k)))
		}
	}
	pl.other = p.place(roots("", false, false))
	if len(pl.patterns) > 0 {
		pl.otherMatch = p.place(roots("", false, true))
	}
}

// arrayPlaces describes the places of the items of an array where set applies.
func (p *placer) arrayPlaces(pl *place, set []*jsonschema.Schema) {
	prefix := 0
	var every []*jsonschema.Schema // contains and unevaluatedItems apply to every item
	for _, s := range set {
		prefix = max(prefix, len(s.PrefixItems))
		if it, ok := s.Items.([]*jsonschema.Schema); ok {
			prefix = max(prefix, len(it))
		}
		if s.Contains != nil {
			every = append(every, s.Contains)
		}
		if s.UnevaluatedItems != nil {
			every = append(every, s.UnevaluatedItems)
		}
	}
	roots := func(i int) []*jsonschema.Schema {
		out := append([]*jsonschema.Schema{}, every...)
		for _, s := range set {
			out = schemawalk.AppendItems(out, s, i)
		}
		return out
	}
	for i := 0; i < prefix; i++ {
		pl.items = append(pl.items, p.place(roots(i)))
	}
	pl.rest = p.place(roots(prefix))
}

// plainKey reports whether every regex dialect reads k alike: printable ASCII only (line
// terminators, Unicode whitespace, case folding and UTF-16 units are where they part).
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// quotientAt reports whether some number in v, at the place pl, divides differently by a
// multipleOf that may apply to it exactly and in floating point (see quotientDiffers); all are
// every multipleOf of the schema, for places that are unsure.
func quotientAt(pl *place, v any, all []*big.Rat) bool {
	return someNumberAt(pl, v, all, quotientDiffers)
}

// divisibleAt reports whether some number in v is at a place where a multipleOf may apply.
func divisibleAt(pl *place, v any, all []*big.Rat) bool {
	return someNumberAt(pl, v, all, func(_ json.Number, ms []*big.Rat) bool { return len(ms) > 0 })
}

// someNumberAt reports whether fn holds for some number in v, at the place pl, and the
// multipleOf values that may apply to it (all of them, for places that are unsure).
func someNumberAt(pl *place, v any, all []*big.Rat, fn func(json.Number, []*big.Rat) bool) bool {
	if pl == nil || !pl.below {
		return false
	}
	if pl.unsure {
		return someNumber(v, all, fn)
	}
	switch x := v.(type) {
	case json.Number:
		return len(pl.multiples) > 0 && fn(x, pl.multiples)
	case map[string]any:
		for k, e := range x {
			c, ok := pl.props[k]
			if !ok {
				c = pl.other
				if pl.otherMatch != nil && (!plainKey(k) || matchesAny(pl.patterns, k)) {
					c = pl.otherMatch
				}
			}
			if someNumberAt(c, e, all, fn) {
				return true
			}
		}
	case []any:
		for i, e := range x {
			c := pl.rest
			if i < len(pl.items) {
				c = pl.items[i]
			}
			if someNumberAt(c, e, all, fn) {
				return true
			}
		}
	}
	return false
}

func matchesAny(res []jsonschema.Regexp, k string) bool {
	for _, re := range res {
		if re.MatchString(k) {
			return true
		}
	}
	return false
}

// someNumber reports whether fn holds for some number in v and ms.
func someNumber(v any, ms []*big.Rat, fn func(json.Number, []*big.Rat) bool) bool {
	switch x := v.(type) {
	case json.Number:
		return fn(x, ms)
	case map[string]any:
		for _, e := range x {
			if someNumber(e, ms, fn) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if someNumber(e, ms, fn) {
				return true
			}
		}
	}
	return false
}
