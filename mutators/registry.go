package mutators

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolproof/toolproof/corpus"
)

// A Definition is one distortion class, written once: its name, its line in the docs' class
// table, its mutator, its recogniser (what Recognise undoes or names of it) and what the audit
// knows of it. Each class's file holds its Definition beside the code it names.
type Definition struct {
	Name    corpus.Class
	Doc     string  // what the model did, as docs/taxonomy.md's class table says it
	Mutator Mutator // draws the class's distortions; its Class() is Name
	Audit   AuditHints
	// recognise is the class's part in Recognise's value layer (the zero value: none; the raw
	// classes are read in the text and root layers, readText and readRoot).
	recognise recogniser
}

// recogniser is a class's part in reading a call's value back: an undoing, an explanation, or
// both, each with its rank (1 first) among the classes' undoings and explanations.
type recogniser struct {
	undo        undoer
	undoRank    int
	explain     explainer
	explainRank int
}

// A Registry is an ordered table of class definitions. Its order is the order of generation
// (and of a report's rows); the definitions' ranks give the order of recognition.
type Registry struct {
	defs []Definition
}

// NewRegistry checks defs and returns them as a registry, in the order given: names unique and
// each the name its Mutator gives, recognition ranks unique.
func NewRegistry(defs ...Definition) (*Registry, error) {
	names := map[corpus.Class]bool{}
	undo, explain := map[int]corpus.Class{}, map[int]corpus.Class{}
	for i, d := range defs {
		switch {
		case d.Name == "":
			return nil, fmt.Errorf("mutators: class definition %d has no name", i)
		case names[d.Name]:
			return nil, fmt.Errorf("mutators: class %q is defined twice", d.Name)
		case d.Mutator == nil || d.Mutator.Class() != d.Name:
			return nil, fmt.Errorf("mutators: class %q: its mutator does not draw it", d.Name)
		}
		names[d.Name] = true
		if err := rank(undo, d.Name, "undo", d.recognise.undo != nil, d.recognise.undoRank); err != nil {
			return nil, err
		}
		if err := rank(explain, d.Name, "explain", d.recognise.explain != nil, d.recognise.explainRank); err != nil {
			return nil, err
		}
	}
	return &Registry{defs: slices.Clone(defs)}, nil
}

// rank records class c's rank among the classes that undo (or explain), if it has the part.
func rank(taken map[int]corpus.Class, c corpus.Class, part string, has bool, r int) error {
	if !has {
		return nil
	}
	if r <= 0 {
		return fmt.Errorf("mutators: class %q: %s rank %d, want 1 or more", c, part, r)
	}
	if other, ok := taken[r]; ok {
		return fmt.Errorf("mutators: classes %q and %q share %s rank %d", other, c, part, r)
	}
	taken[r] = c
	return nil
}

// Default returns the registry of every class, the classic four first. Each call builds it
// anew.
func Default() *Registry {
	r, err := NewRegistry(stringifiedClass(), flattenedClass(), hallucinatedClass(), outOfRangeClass(),
		missingClass(), nullClass(), wrongTypeClass(), jsonInStringClass(), wrappedScalarClass(), wrapperNestingClass(),
		rootNotObjectClass(), malformedClass(), implementationDefinedClass(), misnamedClass())
	if err != nil {
		panic(err) // the table above is wrong: TestDefaultRegistry says how
	}
	return r
}

// Definitions returns the registry's definitions, in order.
func (r *Registry) Definitions() []Definition { return slices.Clone(r.defs) }

// Lookup returns the definition of class c.
func (r *Registry) Lookup(c corpus.Class) (Definition, bool) {
	for _, d := range r.defs {
		if d.Name == c {
			return d, true
		}
	}
	return Definition{}, false
}

// Mutators returns the mutator of every class, in order.
func (r *Registry) Mutators() []Mutator {
	out := make([]Mutator, len(r.defs))
	for i, d := range r.defs {
		out[i] = d.Mutator
	}
	return out
}

// Classes lists the class names, in order.
func (r *Registry) Classes() []corpus.Class {
	out := make([]corpus.Class, len(r.defs))
	for i, d := range r.defs {
		out[i] = d.Name
	}
	return out
}

// Select returns the mutators named in a comma-separated list ("" or "all": every one), in the
// list's order.
func (r *Registry) Select(list string) ([]Mutator, error) {
	if list == "" || list == "all" {
		return r.Mutators(), nil
	}
	var out []Mutator
	for _, name := range strings.Split(list, ",") {
		d, ok := r.Lookup(corpus.Class(strings.TrimSpace(name)))
		if !ok {
			var names []string
			for _, c := range r.Classes() {
				names = append(names, string(c))
			}
			return nil, fmt.Errorf("unknown mutator %q (known: %s)", strings.TrimSpace(name), strings.Join(names, ", "))
		}
		out = append(out, d.Mutator)
	}
	return out, nil
}

// recognisers returns the recognisers Recognise uses with this registry: the text and root
// layers, then the value layer's undoers and explainers in the order of their ranks.
func (r *Registry) recognisers() recognisers {
	defs := slices.Clone(r.defs)
	rs := recognisers{text: readText, root: readRoot}
	slices.SortStableFunc(defs, func(a, b Definition) int { return a.recognise.undoRank - b.recognise.undoRank })
	for _, d := range defs {
		if d.recognise.undo != nil {
			rs.undoers = append(rs.undoers, d.recognise.undo)
		}
	}
	slices.SortStableFunc(defs, func(a, b Definition) int { return a.recognise.explainRank - b.recognise.explainRank })
	for _, d := range defs {
		if d.recognise.explain != nil {
			rs.explainers = append(rs.explainers, d.recognise.explain)
		}
	}
	return rs
}
