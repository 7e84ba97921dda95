package generate

import (
	"sort"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

type propPlan struct {
	name      string
	required  bool
	forbidden bool
	child     *lazyNode
}

type objPlan struct {
	n          *node
	props      []*propPlan
	index      map[string]int
	minP, maxP int // maxP < 0: unbounded
	extras     bool
	extraNode  *lazyNode // additionalProperties schemas for keys nobody declared
	keyPlan    *strPlan  // propertyNames, when some schema has it
	keyRoots   []*jsonschema.Schema
	patterns   []*pattern
	depReq     map[string][]string
	hasPattern bool
}

func planObject(n *node) (*objPlan, string) {
	p := &objPlan{n: n, maxP: -1, extras: true, index: map[string]int{}, depReq: map[string][]string{}}
	k := &objKeywords{names: map[string]bool{}, required: map[string]bool{}}
	for _, s := range n.conj {
		p.read(s, k)
	}
	if p.maxP >= 0 && p.minP > p.maxP {
		return nil, "minProperties is above maxProperties"
	}
	if why := p.planProps(k); why != "" {
		return nil, why
	}
	p.extraNode = n.g.lazy(k.extraRoots)
	p.keyRoots = k.keyRoots
	if len(k.keyRoots) > 0 {
		kn := n.g.nodeFor(k.keyRoots, nil)
		if kn.unsat == "" && kn.types&tStr != 0 && kn.str != nil && kn.choice == nil && kn.enum == nil {
			p.keyPlan = kn.str
		}
	}
	if p.hasPattern || len(k.keyRoots) > 0 || p.minP > 0 || p.maxP >= 0 {
		n.check = true
	}
	return p, ""
}

// objKeywords is what the conjuncts of an object node say of its keys, gathered by read.
type objKeywords struct {
	names, required      map[string]bool      // every property named anywhere, and the required ones
	keyRoots, extraRoots []*jsonschema.Schema // propertyNames; additionalProperties and unevaluatedProperties
}

// read adds what s says of the object (bounds, properties, requirements, dependencies, patterns,
// extra keys, key names) to p and k.
func (p *objPlan) read(s *jsonschema.Schema, k *objKeywords) {
	if s.MinProperties != nil && *s.MinProperties > p.minP {
		p.minP = *s.MinProperties
	}
	if s.MaxProperties != nil && (p.maxP < 0 || *s.MaxProperties < p.maxP) {
		p.maxP = *s.MaxProperties
	}
	for name := range s.Properties {
		k.names[name] = true
	}
	for _, r := range s.Required {
		k.names[r] = true
		k.required[r] = true
	}
	for key, deps := range s.DependentRequired {
		p.depReq[key] = append(p.depReq[key], deps...)
		for _, d := range deps {
			k.names[d] = true
		}
	}
	for key, dep := range s.Dependencies {
		if deps, ok := dep.([]string); ok {
			p.depReq[key] = append(p.depReq[key], deps...)
			for _, d := range deps {
				k.names[d] = true
			}
		}
	}
	for _, pp := range schemawalk.Patterns(s) {
		p.hasPattern = true
		if pt, err := newPattern(pp.Regexp); err == nil {
			p.patterns = append(p.patterns, pt)
		}
	}
	switch ap := s.AdditionalProperties.(type) {
	case bool:
		if !ap {
			p.extras = false
		}
	case *jsonschema.Schema:
		if isFalse(ap) {
			p.extras = false
		} else {
			k.extraRoots = append(k.extraRoots, ap)
		}
	}
	if s.UnevaluatedProperties != nil {
		if isFalse(s.UnevaluatedProperties) {
			p.extras = false
		} else {
			k.extraRoots = append(k.extraRoots, s.UnevaluatedProperties)
		}
	}
	if s.PropertyNames != nil {
		k.keyRoots = append(k.keyRoots, s.PropertyNames)
	}
}

// planProps plans every property named anywhere, in name order: its value's schemas, or
// forbidden when no value (or the name itself) is allowed. It says why when a required one is
// not allowed.
func (p *objPlan) planProps(k *objKeywords) string {
	n := p.n
	sorted := make([]string, 0, len(k.names))
	for name := range k.names {
		sorted = append(sorted, name)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		pp := &propPlan{name: name, required: k.required[name]}
		roots, ok := p.valueRoots(name)
		if ok && !validForAll(k.keyRoots, name) {
			ok = false
		}
		if !ok {
			if pp.required {
				return "required property " + name + " is not allowed by the schema"
			}
			pp.forbidden = true
		} else {
			pp.child = n.g.lazy(roots)
		}
		p.index[name] = len(p.props)
		p.props = append(p.props, pp)
	}
	return ""
}

// valueRoots returns the schemas the value of property name must satisfy, and false when the
// object may not have that property at all.
func (p *objPlan) valueRoots(name string) ([]*jsonschema.Schema, bool) {
	var roots []*jsonschema.Schema
	for _, s := range p.n.conj {
		from := len(roots)
		roots = schemawalk.AppendMember(roots, s, name)
		// Unlike AppendMember, a name s leaves to additionalProperties: false may not be used.
		if len(roots) == from && s.AdditionalProperties == false {
			return nil, false
		}
	}
	for _, r := range roots {
		if isFalse(r) {
			return nil, false
		}
	}
	return roots, true
}

// edgeKeys are property names that break validators: JSON Pointer escapes, prototype keys,
// empty and non-ASCII names.
var edgeKeys = []string{"~", "/", "a/b", "~1", "__proto__", "constructor", "toString", "", "ключ", "k e y", "😀"}

func (p *objPlan) gen(st *state, depth int) (any, bool) {
	present, count, ok := p.presence(st.t, depth)
	if !ok {
		return nil, false
	}
	obj := make(map[string]any, count+1)
	for i, pp := range p.props {
		if !present[i] {
			continue
		}
		v, ok := pp.child.get().gen(st, depth+1)
		if !ok {
			return nil, false
		}
		obj[pp.name] = v
	}
	p.addUndeclared(st, obj, depth)
	if len(obj) < p.minP {
		return nil, false
	}
	return obj, true
}

// presence draws which declared properties the object has: the required ones, the optional
// ones all, none or each by a coin, then what dependentRequired brings and minProperties asks;
// false when the draw cannot be an object of the schema.
func (p *objPlan) presence(t *rapid.T, depth int) ([]bool, int, bool) {
	present := make([]bool, len(p.props))
	// 0: no optional property, 1: all of them, 2 and 3: each by a coin.
	mode := draw.Bits(t, 2, "optional")
	if depth >= softDepth {
		mode = 0
	}
	count := 0
	for i, pp := range p.props {
		switch {
		case pp.forbidden:
		case pp.required:
			present[i] = true
		case mode == 1:
			present[i] = true
		case mode >= 2:
			present[i] = draw.Bool(t, pp.name)
		}
	}
	// dependentRequired: a present property brings its dependencies.
	for changed := true; changed; {
		changed = false
		for i, pp := range p.props {
			if !present[i] {
				continue
			}
			for _, d := range p.depReq[pp.name] {
				j := p.index[d]
				if p.props[j].forbidden {
					return nil, 0, false
				}
				if !present[j] {
					present[j] = true
					changed = true
				}
			}
		}
	}
	for _, b := range present {
		if b {
			count++
		}
	}
	if p.maxP >= 0 && count > p.maxP {
		return nil, 0, false
	}
	for i, pp := range p.props {
		if count >= p.minP {
			break
		}
		if !present[i] && !pp.forbidden {
			present[i] = true
			count++
		}
	}
	return present, count, true
}

// addUndeclared adds keys nobody declared to obj: a pattern key, and extras where the object
// is open, as room (maxProperties) allows.
func (p *objPlan) addUndeclared(st *state, obj map[string]any, depth int) {
	t := st.t
	// Keys nobody declared: pattern keys, and extras where the object is open.
	room := func() bool { return p.maxP < 0 || len(obj) < p.maxP }
	need := p.minP - len(obj)
	if len(p.patterns) > 0 && room() && depth < softDepth && (need > 0 || draw.Int(t, 0, 2, "patternKey") == 0) {
		pt := p.patterns[draw.Int(t, 0, len(p.patterns)-1, "whichPattern")]
		if k, ok := pt.gen(t, 0, -1); ok && pt.match(k) {
			if _, dup := obj[k]; !dup {
				if v, ok := p.extraValue(st, k, depth); ok {
					obj[k] = v
				}
			}
		}
	}
	extras := 0
	if p.extras && depth < softDepth && draw.Chance(t, 9, 5, "extras") {
		extras = 1
		if draw.Bool(t, "extraCount") {
			extras = 2
		}
	}
	if p.extras && need > 0 {
		extras = max(extras, p.minP-len(obj))
	}
	for e := 0; e < extras && room(); e++ {
		k, ok := p.extraKey(t)
		if !ok {
			continue
		}
		if _, dup := obj[k]; dup {
			continue
		}
		if _, declared := p.index[k]; declared {
			continue
		}
		v, ok := p.extraValue(st, k, depth)
		if !ok {
			continue
		}
		obj[k] = v
	}
}

func (p *objPlan) extraKey(t *rapid.T) (string, bool) {
	if p.keyPlan != nil {
		v, ok := p.keyPlan.gen(t)
		if !ok {
			return "", false
		}
		return v.(string), true
	}
	var k string
	if draw.Chance(t, 11, 5, "edgeKey") { // 11 in 32
		k = edgeKeys[draw.Int(t, 0, len(edgeKeys)-1, "edge")]
	} else {
		k = "x_" + label(t, 1, 8)
	}
	if !validForAll(p.keyRoots, k) {
		return "", false
	}
	for _, pt := range p.patterns {
		if pt.match(k) {
			return "", false // its value would have to meet the pattern's schema too
		}
	}
	return k, true
}

// extraValue draws the value of an undeclared key k.
func (p *objPlan) extraValue(st *state, k string, depth int) (any, bool) {
	if len(p.patterns) == 0 {
		return p.extraNode.get().gen(st, depth+1)
	}
	roots, ok := p.valueRoots(k)
	if !ok {
		return nil, false
	}
	return p.n.g.nodeFor(roots, nil).gen(st, depth+1)
}
