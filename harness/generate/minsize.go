package generate

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MaxMinBytes is the most string bytes a valid value may need at least, as much as one string
// may (MaxMinLength). Each rune is one draw of rapid's, so a case of 2^20 bytes takes about a
// second to draw on a 2-core machine, and a signal is answered after the draw in hand: a
// case of gigabytes (3,000 strings of minLength 1,000,000) would take hours and exhaust the
// memory.
const MaxMinBytes = MaxMinLength

// minSize is a lower bound on what every valid value of a schema holds: its JSON values (each
// one a node the generator visits, state.spend) and the bytes of its strings.
type minSize struct{ nodes, bytes int }

// sizeLimit saturates the sums and products of minSize, far above any budget.
const sizeLimit = 1 << 40

func (a minSize) plus(b minSize) minSize {
	return minSize{min(a.nodes+b.nodes, sizeLimit), min(a.bytes+b.bytes, sizeLimit)}
}

func (a minSize) times(n int) minSize {
	mul := func(x int) int {
		if x != 0 && n > sizeLimit/x {
			return sizeLimit
		}
		return x * n
	}
	return minSize{mul(a.nodes), mul(a.bytes)}
}

func (a minSize) atLeast(b minSize) minSize {
	return minSize{max(a.nodes, b.nodes), max(a.bytes, b.bytes)}
}

// sizeBeyondDraw says why no valid value of root can be drawn within one draw's budget: it
// needs more nodes than a draw may visit (maxWork) or more string bytes than a case may hold
// (MaxMinBytes); "" when the lower bound fits. The bound counts only what every valid value
// must hold (minItems of a schema whose type is array, the required properties of one whose
// type is object, minLength of one whose type is string, and the most of these over allOf and
// $ref, the least over anyOf and oneOf), so a schema it refuses is one no draw can reach:
// without it each draw would visit maxWork nodes in vain, four times, before the tool was
// skipped with "no valid value".
func sizeBeyondDraw(root *jsonschema.Schema) string {
	m := minSizer{memo: map[*jsonschema.Schema]minSize{}, open: map[*jsonschema.Schema]bool{}}
	sz := m.of(root, true)
	switch {
	case sz.nodes > maxWork:
		return fmt.Sprintf("every valid value holds at least %d JSON values (from minItems at %s), more than "+
			"one draw may build (%d)", sz.nodes, m.at, maxWork)
	case sz.bytes > MaxMinBytes:
		return fmt.Sprintf("every valid value holds at least %d bytes of strings (from minItems and minLength at %s), "+
			"more than one case may hold (generate.MaxMinBytes, %d)", sz.bytes, m.at, MaxMinBytes)
	}
	return ""
}

// minSizer computes minSize once per schema; a schema met again on its own path (a $ref cycle)
// counts as one node, which keeps the bound a lower bound.
type minSizer struct {
	memo map[*jsonschema.Schema]minSize
	open map[*jsonschema.Schema]bool
	at   string // the first array whose bound is beyond a budget: the place to name
}

// of is the lower bound for s; object says the value is an object whatever s says (the tool's
// arguments).
func (m *minSizer) of(s *jsonschema.Schema, object bool) minSize {
	one := minSize{nodes: 1}
	if s == nil || s.Bool != nil || s.Enum != nil || s.Const != nil || m.open[s] {
		return one // an enum or const value is picked whole, in one node
	}
	if sz, ok := m.memo[s]; ok && !object {
		return sz
	}
	m.open[s] = true
	sz := one.atLeast(m.own(s, object))
	for _, c := range append([]*jsonschema.Schema{s.Ref}, s.AllOf...) {
		if c != nil {
			sz = sz.atLeast(m.of(c, false))
		}
	}
	for _, alts := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf} {
		if len(alts) > 0 {
			sz = sz.atLeast(m.least(alts))
		}
	}
	delete(m.open, s)
	if !object {
		m.memo[s] = sz
	}
	return sz
}

// least is the smallest bound among the alternatives.
func (m *minSizer) least(alts []*jsonschema.Schema) minSize {
	lo := m.of(alts[0], false)
	for _, a := range alts[1:] {
		b := m.of(a, false)
		lo = minSize{min(lo.nodes, b.nodes), min(lo.bytes, b.bytes)}
	}
	return lo
}

// own is the bound from s's own keywords, when its type says which kind of value it is.
func (m *minSizer) own(s *jsonschema.Schema, object bool) minSize {
	var types []string
	if s.Types != nil {
		types = s.Types.ToStrings()
	}
	only := func(t string) bool { return len(types) == 1 && types[0] == t }
	one := minSize{nodes: 1}
	switch {
	case only("string") && s.MinLength != nil:
		return minSize{nodes: 1, bytes: *s.MinLength}
	case only("array") && s.MinItems != nil && *s.MinItems > 0:
		sz := one.plus(m.itemsOf(s).times(*s.MinItems))
		if m.at == "" && (sz.nodes > maxWork || sz.bytes > MaxMinBytes) {
			m.at = s.Location
		}
		return sz
	case object || only("object"):
		sz := one
		for _, name := range s.Required {
			sz = sz.plus(m.of(s.Properties[name], false))
		}
		if s.MinProperties != nil && *s.MinProperties+1 > sz.nodes {
			sz.nodes = *s.MinProperties + 1
		}
		return sz
	}
	return one
}

// itemsOf is the least bound of any one item of s: over its prefix items and the schema of
// the items after them.
func (m *minSizer) itemsOf(s *jsonschema.Schema) minSize {
	var alts []*jsonschema.Schema
	alts = append(alts, s.PrefixItems...)
	switch it := s.Items.(type) {
	case []*jsonschema.Schema:
		alts = append(alts, it...)
		if ai, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
			alts = append(alts, ai)
		} else {
			alts = append(alts, nil)
		}
	case *jsonschema.Schema:
		alts = append(alts, it)
	default:
		alts = append(alts, s.Items2020)
	}
	return m.least(alts)
}
