package generate

import (
	"sort"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

// lazyNode is a child node built on first use.
type lazyNode struct {
	g     *Generator
	roots []*jsonschema.Schema
	p     atomic.Pointer[node]
}

func (l *lazyNode) get() *node {
	if n := l.p.Load(); n != nil {
		return n
	}
	n := l.g.nodeFor(l.roots, nil)
	l.p.Store(n)
	return n
}

func (g *Generator) lazy(roots []*jsonschema.Schema) *lazyNode {
	return &lazyNode{g: g, roots: roots}
}

func isFalse(s *jsonschema.Schema) bool { return s != nil && s.Bool != nil && !*s.Bool }

// ---- arrays

type arrPlan struct {
	minItems, maxItems int // maxItems < 0: unbounded
	prefix             []*lazyNode
	prefixContains     []*lazyNode
	rest               *lazyNode // nil: no item allowed past the prefix
	restContains       *lazyNode
	unique             bool
	contains           *jsonschema.Schema
	minC, maxC         int // maxC < 0: unbounded
}

func planArray(n *node) (*arrPlan, string) {
	p, prefixLen := arrayBounds(n)
	for i := 0; i < prefixLen; i++ {
		roots, ok := itemSchemas(n, i)
		if !ok {
			if p.maxItems < 0 || i < p.maxItems {
				p.maxItems = i
			}
			break
		}
		p.prefix = append(p.prefix, n.g.lazy(roots))
		if p.contains != nil {
			p.prefixContains = append(p.prefixContains, n.g.lazy(append(append([]*jsonschema.Schema{}, roots...), p.contains)))
		}
	}
	if len(p.prefix) == prefixLen {
		if roots, ok := itemSchemas(n, prefixLen); ok {
			p.rest = n.g.lazy(roots)
			if p.contains != nil {
				p.restContains = n.g.lazy(append(append([]*jsonschema.Schema{}, roots...), p.contains))
			}
		} else if p.maxItems < 0 || prefixLen < p.maxItems {
			p.maxItems = prefixLen
		}
	}
	if p.maxItems >= 0 && p.minItems > p.maxItems {
		return nil, "minItems is above the number of items allowed"
	}
	if p.contains != nil {
		if p.maxC >= 0 && p.minC > p.maxC {
			return nil, "minContains is above maxContains"
		}
		if p.maxItems >= 0 && p.minC > p.maxItems {
			return nil, "minContains is above maxItems"
		}
	}
	return p, ""
}

// arrayBounds reads the conjunction's item counts, uniqueness and contains into a plan, and
// how many leading items have schemas of their own (prefixItems, or items as an array).
func arrayBounds(n *node) (*arrPlan, int) {
	p := &arrPlan{maxItems: -1, maxC: -1}
	prefixLen := 0
	for _, s := range n.conj {
		if s.MinItems != nil && *s.MinItems > p.minItems {
			p.minItems = *s.MinItems
		}
		if s.MaxItems != nil && (p.maxItems < 0 || *s.MaxItems < p.maxItems) {
			p.maxItems = *s.MaxItems
		}
		if s.UniqueItems {
			p.unique = true
		}
		prefixLen = max(prefixLen, len(s.PrefixItems))
		if items, ok := s.Items.([]*jsonschema.Schema); ok {
			prefixLen = max(prefixLen, len(items))
		}
		if s.Contains != nil {
			if p.contains == nil {
				p.contains = s.Contains
				p.minC = 1
				if s.MinContains != nil {
					p.minC = *s.MinContains
				}
				if s.MaxContains != nil {
					p.maxC = *s.MaxContains
				}
			} else {
				n.check = true
			}
		}
	}
	if p.contains != nil && p.maxC >= 0 {
		n.check = true
	}
	return p, prefixLen
}

// itemSchemas returns the schemas item i of an array under n's conjunction must satisfy, and
// false when no item i may exist at all.
func itemSchemas(n *node, i int) ([]*jsonschema.Schema, bool) {
	var roots []*jsonschema.Schema
	covered := false
	for _, s := range n.conj {
		var sub *jsonschema.Schema
		switch {
		case i < len(s.PrefixItems):
			sub = s.PrefixItems[i]
		case s.Items2020 != nil:
			sub = s.Items2020
		}
		switch items := s.Items.(type) {
		case *jsonschema.Schema:
			sub = items
		case []*jsonschema.Schema:
			if i < len(items) {
				sub = items[i]
			} else {
				switch add := s.AdditionalItems.(type) {
				case bool:
					if !add {
						return nil, false
					}
				case *jsonschema.Schema:
					sub = add
				}
			}
		}
		if sub != nil {
			covered = true
			if isFalse(sub) {
				return nil, false
			}
			roots = append(roots, sub)
		}
	}
	if !covered {
		for _, s := range n.conj {
			if s.UnevaluatedItems != nil {
				if isFalse(s.UnevaluatedItems) {
					return nil, false
				}
				roots = append(roots, s.UnevaluatedItems)
			}
		}
	}
	return roots, true
}

func (p *arrPlan) itemNode(i int, contains bool) *node {
	if i < len(p.prefix) {
		if contains {
			return p.prefixContains[i].get()
		}
		return p.prefix[i].get()
	}
	if contains {
		return p.restContains.get()
	}
	return p.rest.get()
}

func (p *arrPlan) gen(st *state, depth int) (any, bool) {
	t := st.t
	lo, hi := p.minItems, p.maxItems
	if p.contains != nil && p.minC > lo {
		lo = p.minC
	}
	softHi := lo + 4
	if depth >= softDepth {
		softHi = lo
	}
	if hi < 0 || hi > softHi {
		if hi < 0 || !draw.Chance(t, 5, 5, "bigArray") { // up to the schema's maximum 5 times in 32
			hi = max(softHi, lo)
		}
	}
	if hi > lo+64 {
		hi = lo + 64
	}
	// A bound 13 times in 32, lo or hi alike; else a length in between.
	var length int
	switch {
	case hi == lo:
		length = lo
	case draw.Chance(t, 19, 5, "arrAny"):
		length = draw.Int(t, lo, hi, "len")
	case draw.Bool(t, "arrMax"):
		length = hi
	default:
		length = lo
	}
	if p.rest == nil && length > len(p.prefix) {
		length = len(p.prefix)
	}
	// Which positions hold the items that must match contains.
	cFrom, cTo := 0, 0
	if p.contains != nil {
		c := p.minC
		top := length
		if p.maxC >= 0 && p.maxC < top {
			top = p.maxC
		}
		if top > c {
			c = draw.Int(t, c, top, "containsCount")
		}
		if c > length {
			return nil, false
		}
		cFrom = draw.Int(t, 0, length-c, "containsAt")
		cTo = cFrom + c
	}
	arr := make([]any, 0, length)
	for i := 0; i < length; i++ {
		isC := i >= cFrom && i < cTo
		nd := p.itemNode(i, isC)
		var v any
		ok := false
		for try := 0; try < 6 && !ok; try++ {
			v, ok = nd.gen(st, depth+1)
			if !ok {
				return nil, false
			}
			if !isC && p.contains != nil && p.maxC >= 0 && p.contains.Validate(v) == nil {
				ok = false
				continue
			}
			if p.unique {
				for _, prev := range arr {
					if jsonvalue.Equal(prev, v) {
						ok = false
						break
					}
				}
			}
		}
		if !ok {
			return nil, false
		}
		arr = append(arr, v)
	}
	return arr, true
}

// ---- objects

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
	names := map[string]bool{}
	required := map[string]bool{}
	var keyRoots, extraRoots []*jsonschema.Schema
	for _, s := range n.conj {
		if s.MinProperties != nil && *s.MinProperties > p.minP {
			p.minP = *s.MinProperties
		}
		if s.MaxProperties != nil && (p.maxP < 0 || *s.MaxProperties < p.maxP) {
			p.maxP = *s.MaxProperties
		}
		for name := range s.Properties {
			names[name] = true
		}
		for _, r := range s.Required {
			names[r] = true
			required[r] = true
		}
		for k, deps := range s.DependentRequired {
			p.depReq[k] = append(p.depReq[k], deps...)
			for _, d := range deps {
				names[d] = true
			}
		}
		for k, dep := range s.Dependencies {
			if deps, ok := dep.([]string); ok {
				p.depReq[k] = append(p.depReq[k], deps...)
				for _, d := range deps {
					names[d] = true
				}
			}
		}
		for _, pp := range schemawalk.Patterns(s) {
			p.hasPattern = true
			if pt, err := newPattern(pp.Regexp.String()); err == nil {
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
				extraRoots = append(extraRoots, ap)
			}
		}
		if s.UnevaluatedProperties != nil {
			if isFalse(s.UnevaluatedProperties) {
				p.extras = false
			} else {
				extraRoots = append(extraRoots, s.UnevaluatedProperties)
			}
		}
		if s.PropertyNames != nil {
			keyRoots = append(keyRoots, s.PropertyNames)
		}
	}
	if p.maxP >= 0 && p.minP > p.maxP {
		return nil, "minProperties is above maxProperties"
	}
	sorted := make([]string, 0, len(names))
	for name := range names {
		sorted = append(sorted, name)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		pp := &propPlan{name: name, required: required[name]}
		roots, ok := p.valueRoots(name)
		if ok && !validForAll(keyRoots, name) {
			ok = false
		}
		if !ok {
			if pp.required {
				return nil, "required property " + name + " is not allowed by the schema"
			}
			pp.forbidden = true
		} else {
			pp.child = n.g.lazy(roots)
		}
		p.index[name] = len(p.props)
		p.props = append(p.props, pp)
	}
	p.extraNode = n.g.lazy(extraRoots)
	p.keyRoots = keyRoots
	if len(keyRoots) > 0 {
		kn := n.g.nodeFor(keyRoots, nil)
		if kn.unsat == "" && kn.types&tStr != 0 && kn.str != nil && kn.choice == nil && kn.enum == nil {
			p.keyPlan = kn.str
		}
	}
	if p.hasPattern || len(keyRoots) > 0 || p.minP > 0 || p.maxP >= 0 {
		n.check = true
	}
	return p, ""
}

// valueRoots returns the schemas the value of property name must satisfy, and false when the
// object may not have that property at all.
func (p *objPlan) valueRoots(name string) ([]*jsonschema.Schema, bool) {
	var roots []*jsonschema.Schema
	for _, s := range p.n.conj {
		in := false
		if sch, ok := s.Properties[name]; ok {
			in = true
			roots = append(roots, sch)
		}
		for _, pp := range schemawalk.Patterns(s) {
			if pp.Regexp.MatchString(name) {
				in = true
				roots = append(roots, pp.Schema)
			}
		}
		if !in {
			switch ap := s.AdditionalProperties.(type) {
			case bool:
				if !ap {
					return nil, false
				}
			case *jsonschema.Schema:
				roots = append(roots, ap)
			}
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
	t := st.t
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
					return nil, false
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
		return nil, false
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
	// Keys nobody declared: pattern keys, and extras where the object is open.
	room := func() bool { return p.maxP < 0 || len(obj) < p.maxP }
	need := p.minP - len(obj)
	if len(p.patterns) > 0 && room() && depth < softDepth && (need > 0 || draw.Int(t, 0, 2, "patternKey") == 0) {
		pt := p.patterns[draw.Int(t, 0, len(p.patterns)-1, "whichPattern")]
		if k, ok := pt.gen(t, 0, -1); ok && pt.re.MatchString(k) {
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
	if len(obj) < p.minP {
		return nil, false
	}
	return obj, true
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
		if pt.re.MatchString(k) {
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
