package generate

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
)

type choiceKey struct {
	s    *jsonschema.Schema
	kind string
}

type choicePoint struct {
	key     choiceKey
	options [][]*jsonschema.Schema // schemas added by each branch
}

// choiceOptions is the options of one choice of s (kind: anyOf, oneOf or if), each the
// schemas a branch adds; none when s makes no such choice.
func choiceOptions(s *jsonschema.Schema, kind string) [][]*jsonschema.Schema {
	var opts [][]*jsonschema.Schema
	switch kind {
	case "anyOf":
		for _, b := range s.AnyOf {
			opts = append(opts, []*jsonschema.Schema{b})
		}
	case "oneOf":
		for _, b := range s.OneOf {
			opts = append(opts, []*jsonschema.Schema{b})
		}
	case "if":
		if s.If == nil || (s.Then == nil && s.Else == nil) {
			return nil
		}
		then := []*jsonschema.Schema{s.If}
		if s.Then != nil {
			then = append(then, s.Then)
		}
		var els []*jsonschema.Schema
		if s.Else != nil {
			els = append(els, s.Else)
		}
		opts = [][]*jsonschema.Schema{then, els}
	}
	return opts
}

// branch returns the node for choosing option i.
func (n *node) branch(i int) *node {
	if b := n.branches[i].Load(); b != nil {
		return b
	}
	done := make(map[choiceKey]bool, len(n.done)+1)
	for k := range n.done {
		done[k] = true
	}
	done[n.choice.key] = true
	roots := append(append([]*jsonschema.Schema{}, n.roots...), n.choice.options[i]...)
	b := n.g.nodeFor(roots, done)
	n.branches[i].Store(b)
	return b
}
