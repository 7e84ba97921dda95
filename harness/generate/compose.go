package generate

import (
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
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

// ---- objects
