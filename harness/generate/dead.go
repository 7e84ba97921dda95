package generate

import (
	"fmt"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// dead reports why no value can satisfy n, looking through what a value must contain:
// required properties, the minimum number of items, every branch of a choice. "" means none
// was found (the value may still be unreachable). visiting guards against recursion.
func (n *node) dead(at string, visiting map[*node]bool) string {
	if n.unsat != "" {
		if at == "" {
			return n.unsat
		}
		return at + ": " + n.unsat
	}
	if visiting[n] || n.enum != nil {
		return ""
	}
	visiting[n] = true
	defer delete(visiting, n)
	if n.choice != nil {
		var first string
		for i := range n.choice.options {
			why := n.branch(i).dead(at, visiting)
			if why == "" {
				return ""
			}
			if first == "" {
				first = why
			}
		}
		return "every branch of the " + n.choice.key.kind + " fails: " + first
	}
	// Every type the node allows must be dead for the node to be.
	var reasons []string
	for _, ty := range typeOrder {
		if n.types&ty == 0 {
			continue
		}
		why := ""
		switch {
		case ty == tObj && n.obj != nil:
			why = n.deadObject(at, visiting)
		case ty == tArr && n.arr != nil && n.arr.minItems > 0:
			why = n.deadArray(at, visiting)
		}
		if why == "" {
			return ""
		}
		reasons = append(reasons, why)
	}
	if len(reasons) == 0 {
		return ""
	}
	return reasons[0]
}

// deadObject is why some required property of the object node can have no value ("" if none).
func (n *node) deadObject(at string, visiting map[*node]bool) string {
	for _, pp := range n.obj.props {
		if pp.required && pp.child != nil {
			if why := pp.child.get().dead(at+"/"+jsonvalue.EscapeToken(pp.name), visiting); why != "" {
				return why
			}
		}
	}
	return ""
}

// deadArray is why some item the array node needs (up to minItems) can have no value ("" if
// none).
func (n *node) deadArray(at string, visiting map[*node]bool) string {
	for i := 0; i < n.arr.minItems && i <= len(n.arr.prefix); i++ {
		why := ""
		if i < len(n.arr.prefix) {
			why = n.arr.prefix[i].get().dead(fmt.Sprintf("%s/%d", at, i), visiting)
		} else if n.arr.rest != nil {
			why = n.arr.rest.get().dead(at+"/*", visiting)
		}
		if why != "" {
			return why
		}
	}
	return ""
}
