package generate

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

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
			p.prefixContains = append(p.prefixContains,
				n.g.lazy(append(append([]*jsonschema.Schema{}, roots...), p.contains)))
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
		from := len(roots)
		roots = schemawalk.AppendItems(roots, s, i)
		if len(roots) == from {
			// Unlike AppendItems, an item s leaves to additionalItems: false may not exist.
			if items, ok := s.Items.([]*jsonschema.Schema); ok && i >= len(items) && s.AdditionalItems == false {
				return nil, false
			}
			continue
		}
		covered = true
		for _, sub := range roots[from:] {
			if isFalse(sub) {
				return nil, false
			}
		}
	}
	// Unlike AppendItems, which reads one schema, unevaluatedItems holds an item no schema covers.
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
	length := p.length(t, depth)
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

// length draws the array's length: a bound 13 times in 32, lo or hi alike, else one in between,
// within the schema's bounds, short below softDepth, and no longer than the prefix when no more
// items are allowed.
func (p *arrPlan) length(t *rapid.T, depth int) int {
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
	return length
}
