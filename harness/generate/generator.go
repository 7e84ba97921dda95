package generate

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
	"github.com/toolproof/toolproof/validator/oracle"
)

// Generator makes valid values for one schema. It is safe for concurrent use.
type Generator struct {
	gk   *oracle.Gatekeeper
	root *jsonschema.Schema
	name string

	mu    sync.Mutex
	nodes map[string]*node

	stats struct {
		values, retries, unreachable, bugs atomic.Int64
	}
	bugMu   sync.Mutex
	lastBug string
	rootN   *node
	dynamic bool // $dynamicRef or $recursiveRef: scope-dependent, so the root filters
	start   bool // the root's plan may draw nothing: draw a bit first (see Draw)
}

// Stats counts what a Generator did.
type Stats struct {
	Values      int64  // values returned
	Retries     int64  // local retries (oneOf exclusivity, not, patterns, uniqueness, ...)
	Unreachable int64  // draws that found no valid value within the attempt budget
	Bugs        int64  // values the oracle rejected although the generator built them as valid
	LastBug     string // the last such value with the oracle's issues
	// Unbuilt names the patterns no string built for met the plan, every try, and whose schema
	// gives no example to draw instead: `pattern "^(?=...)" at LOCATION`, sorted.
	Unbuilt []string
}

// ErrTooBig is wrapped by the error New returns for a schema whose values would be too big to
// draw within a tool's budget; the tool is skipped with that reason.
var ErrTooBig = errors.New("schema is beyond the generator's budget")

// MaxMinProperties is the largest minProperties New accepts: every property of a value is
// drawn, judged and distorted, so a value of 100,000 properties would take minutes.
const MaxMinProperties = 1000

// MaxMinItems is the largest minItems New accepts, and MaxMinLength the largest minLength: the
// size budget of what one drawn case may hold, checked before anything is allocated (an array
// of 200,000,000 items would exhaust the memory).
const (
	MaxMinItems  = 10000
	MaxMinLength = 1 << 20
)

// ErrUnsatisfiable is wrapped by the error New returns for a schema no value can satisfy.
var ErrUnsatisfiable = errors.New("schema is unsatisfiable")

// ErrCannotConstruct is wrapped by the error New returns for a schema whose valid values need a
// string the generator cannot construct (a pattern its string builder cannot read), and that
// gives no example of one; the schema may well be satisfiable.
var ErrCannotConstruct = errors.New("the generator cannot construct a valid value")

// New prepares a generator for the tool compiled in gk. It fails with an error wrapping
// ErrUnsatisfiable when the schema can be seen to have no valid value, ErrCannotConstruct when
// a pattern it needs is beyond the generator.
func New(gk *oracle.Gatekeeper) (*Generator, error) { return newGenerator(gk, true) }

// newGenerator is New; objects says whether values must be objects (tool arguments), else any
// value of the schema is drawn (the keyword tests draw scalars at the root).
func newGenerator(gk *oracle.Gatekeeper, objects bool) (*Generator, error) {
	g := &Generator{gk: gk, root: gk.Schema(), name: gk.Tool().Name, nodes: map[string]*node{}}
	var tooBig string
	schemawalk.Each(g.root, func(s *jsonschema.Schema) {
		if (s.DynamicRef != nil && s.DynamicRef.Anchor != "") || s.RecursiveRef != nil {
			g.dynamic = true
		}
		if s.MinProperties != nil && *s.MinProperties > MaxMinProperties && tooBig == "" {
			tooBig = fmt.Sprintf("minProperties %d at %s: more properties than a drawn value may have "+
				"(generate.MaxMinProperties, %d)", *s.MinProperties, s.Location, MaxMinProperties)
		}
		if tooBig == "" {
			tooBig = sizeBeyondBudget(s)
		}
	})
	if tooBig == "" {
		tooBig = sizeBeyondDraw(g.root)
	}
	if tooBig != "" {
		return nil, fmt.Errorf("tool %q: %w: %s", g.name, ErrTooBig, tooBig)
	}
	// Tool arguments are objects (the plain-object root rule): the root is drawn as the schema
	// and {"type": "object"} together, so {} and true mean any object.
	roots := []*jsonschema.Schema{g.root}
	if objects {
		roots = append(roots, objectSchema())
	}
	n := g.nodeFor(roots, nil)
	if why := n.unsatisfied(); why != "" {
		if objects && g.nodeFor([]*jsonschema.Schema{g.root}, nil).unsatisfied() == "" {
			why = "the schema admits no JSON object, and tool arguments are objects (" + why + ")"
		}
		if strings.Contains(why, cannotConstruct) {
			return nil, fmt.Errorf("tool %q: %w: %s", g.name, ErrCannotConstruct, why)
		}
		return nil, fmt.Errorf("tool %q: %w: %s", g.name, ErrUnsatisfiable, why)
	}
	g.rootN = n
	// An object at depth 0 always draws whether its optional properties are present.
	g.start = !(n.enum == nil && n.choice == nil && n.types == tObj && n.obj != nil)
	return g, nil
}

// sizeBeyondBudget names the minItems or minLength of s beyond the size budget of one case
// ("" when both fit).
func sizeBeyondBudget(s *jsonschema.Schema) string {
	if s.MinItems != nil && *s.MinItems > MaxMinItems {
		return fmt.Sprintf("minItems %d at %s: more items than a drawn value may hold (generate.MaxMinItems, %d)",
			*s.MinItems, s.Location, MaxMinItems)
	}
	if s.MinLength != nil && *s.MinLength > MaxMinLength {
		return fmt.Sprintf("minLength %d at %s: a longer string than a drawn value may hold "+
			"(generate.MaxMinLength, %d)",
			*s.MinLength, s.Location, MaxMinLength)
	}
	return ""
}

// unsatisfied says why no value satisfies n ("" when one may).
func (n *node) unsatisfied() string {
	if n.unsat != "" {
		return n.unsat
	}
	return n.dead("", map[*node]bool{})
}

// objectSchema is {"type": "object"} compiled: what the plain-object root rule asks of tool
// arguments, in a form the planner conjoins with the tool's schema.
var objectSchema = sync.OnceValue(func() *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	const loc = "mem://toolproof/arguments.json"
	if err := c.AddResource(loc, map[string]any{"type": "object"}); err != nil {
		panic(err)
	}
	return c.MustCompile(loc)
})

// Stats returns the counts so far.
func (g *Generator) Stats() Stats {
	g.bugMu.Lock()
	last := g.lastBug
	g.bugMu.Unlock()
	return Stats{Values: g.stats.values.Load(), Retries: g.stats.retries.Load(),
		Unreachable: g.stats.unreachable.Load(), Bugs: g.stats.bugs.Load(), LastBug: last, Unbuilt: g.unbuilt()}
}

// unbuilt is Stats' Unbuilt.
func (g *Generator) unbuilt() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, n := range g.nodes {
		if n.str == nil || len(n.str.fallback) > 0 {
			continue
		}
		for _, pt := range n.str.patterns {
			if pt.built.Load() == 0 && pt.failed.Load() > 0 {
				out = append(out, fmt.Sprintf("pattern %q at %s", pt.src, pt.loc))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// maxWork bounds the nodes visited for one value, so pathological schemas fail fast.
const maxWork = 20000

// Draw draws one valid value, confirmed by the oracle. ok is false when no valid value was
// found within the attempt budget (the schema is hard to reach); the caller decides whether
// that skips the case. A value the oracle rejects although the plan built it as valid is a
// generator bug: counted in Stats, never returned.
func (g *Generator) Draw(t *rapid.T) (v any, ok bool) {
	g.drawStart(t)
	for attempt := 0; attempt < 4; attempt++ {
		v, ok, confirmed := g.build(t)
		if !ok {
			continue
		}
		if !confirmed && !g.gk.Valid(v) {
			g.stats.bugs.Add(1)
			b, _ := jsonvalue.Marshal(v)
			var msgs []string
			for _, is := range g.gk.Issues(v) {
				msgs = append(msgs, is.String())
			}
			g.bugMu.Lock()
			g.lastBug = fmt.Sprintf("%s: %s", b, strings.Join(msgs, "; "))
			g.bugMu.Unlock()
			continue
		}
		g.stats.values.Add(1)
		return v, true
	}
	g.stats.unreachable.Add(1)
	return nil, false
}

// Build draws one value from the plan without the final confirmation Draw adds: what the
// generator costs on its own (the benchmarks compare it with a hand-written rapid generator).
// Where the plan filters at the root (oneOf, not, $dynamicRef, ...) the filter runs here too.
func (g *Generator) Build(t *rapid.T) (any, bool) {
	g.drawStart(t)
	v, ok, _ := g.build(t)
	return v, ok
}

// drawStart draws one bit when the root's plan may draw none: rapid requires every generator
// to draw at least one bit, and a const schema, or null, draws none.
func (g *Generator) drawStart(t *rapid.T) {
	if g.start {
		_ = draw.Bool(t, "start")
	}
}

// build draws from the plan; confirmed says whether the oracle already accepted the value
// (the root filters through it).
func (g *Generator) build(t *rapid.T) (v any, ok, confirmed bool) {
	st := &state{t: t, g: g}
	v, ok = g.rootN.gen(st, 0)
	if !ok {
		return nil, false, false
	}
	if g.rootN.check || g.dynamic {
		if !g.gk.Valid(v) {
			g.stats.retries.Add(1)
			return nil, false, false
		}
		return v, true, true
	}
	return v, true, false
}

// Valid is a rapid generator of valid values. A draw that finds none marks the rapid test case
// invalid (rapid then tries other data), as a filter would.
func (g *Generator) Valid() *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		v, ok := g.Draw(t)
		if !ok {
			t.Skipf("no valid value for tool %q found in this draw", g.name)
		}
		return v
	})
}

// state is the per-draw context.
type state struct {
	t     *rapid.T
	g     *Generator
	work  int
	bytes int // of the strings drawn (spendBytes)
}

func (st *state) spend() bool {
	st.work++
	return st.work <= maxWork
}

// spendBytes counts n bytes of strings drawn; past MaxMinBytes the draw ends as one past
// maxWork does, so that no draw runs long whatever keeps its strings long (a pattern's
// repetition, say, which the static bound, sizeBeyondDraw, does not read).
func (st *state) spendBytes(n int) bool {
	st.bytes += n
	if st.bytes > MaxMinBytes {
		st.work = maxWork + 1
		return false
	}
	return true
}

// node is a conjunction of schemas a value must satisfy, with the plan to generate one.
type node struct {
	g     *Generator
	roots []*jsonschema.Schema // what the value must satisfy (validated when check)
	conj  []*jsonschema.Schema // roots with $ref targets and allOf members expanded
	done  map[choiceKey]bool   // choices already made on the way to this node
	unsat string               // non-empty: no value can satisfy this node

	check bool // the plan is not sound by construction: validate the result against roots

	enum []any // non-nil: pick one of these (each valid for all roots)

	choice   *choicePoint // non-nil: pick a branch first
	branches []atomic.Pointer[node]

	types typeSet
	num   *numPlan
	str   *strPlan
	arr   *arrPlan
	obj   *objPlan
}

// nodeFor returns the node for roots, after the choices in done; nodes are shared.
func (g *Generator) nodeFor(roots []*jsonschema.Schema, done map[choiceKey]bool) *node {
	key := nodeKey(roots, done)
	g.mu.Lock()
	if n, ok := g.nodes[key]; ok {
		g.mu.Unlock()
		return n
	}
	n := &node{g: g, roots: roots, done: done}
	g.nodes[key] = n
	g.mu.Unlock()
	n.plan()
	return n
}

func nodeKey(roots []*jsonschema.Schema, done map[choiceKey]bool) string {
	var b strings.Builder
	ptrs := make([]string, 0, len(roots))
	for _, r := range roots {
		ptrs = append(ptrs, fmt.Sprintf("%p", r))
	}
	sort.Strings(ptrs)
	b.WriteString(strings.Join(ptrs, ","))
	if len(done) > 0 {
		var ds []string
		for k := range done {
			ds = append(ds, fmt.Sprintf("%p:%s", k.s, k.kind))
		}
		sort.Strings(ds)
		b.WriteString("|")
		b.WriteString(strings.Join(ds, ","))
	}
	return b.String()
}

// expand returns roots with $ref targets and allOf members added, each schema once, and why
// they cannot be satisfied when one of them is the schema false.
func expand(roots []*jsonschema.Schema) (conj []*jsonschema.Schema, unsat string) {
	for _, s := range schemawalk.Conjunction(roots, nil) {
		if s.Bool != nil {
			if !*s.Bool && unsat == "" {
				unsat = "the schema at " + s.Location + " is false"
			}
			continue
		}
		conj = append(conj, s)
	}
	return conj, unsat
}

// refLoop names a loop of $ref (and allOf) that leads from one of roots back to a schema on
// its way, at the same place in the value: the oracle rejects every value there (a reference
// cycle), so no value is valid. It returns "" when there is none.
func refLoop(roots []*jsonschema.Schema) string {
	done := map[*jsonschema.Schema]bool{}
	var path []*jsonschema.Schema
	var visit func(s *jsonschema.Schema) string
	visit = func(s *jsonschema.Schema) string {
		if s == nil || done[s] {
			return ""
		}
		if i := slices.Index(path, s); i >= 0 {
			locs := make([]string, 0, len(path)-i+1)
			for _, p := range append(path[i:], s) {
				locs = append(locs, p.Location)
			}
			return "a loop of $ref with no value: " + strings.Join(locs, " -> ") +
				" (the oracle rejects every value there as a reference cycle)"
		}
		path = append(path, s)
		defer func() { path = path[:len(path)-1]; done[s] = true }()
		if why := visit(s.Ref); why != "" {
			return why
		}
		for _, a := range s.AllOf {
			if why := visit(a); why != "" {
				return why
			}
		}
		return ""
	}
	for _, r := range roots {
		if why := visit(r); why != "" {
			return why
		}
	}
	return ""
}

func (n *node) plan() {
	conj, unsat := expand(n.roots)
	n.conj = conj
	if unsat == "" {
		unsat = refLoop(n.roots)
	}
	if unsat != "" {
		n.unsat = unsat
		return
	}
	for k := range n.done {
		if k.kind == "if" || (k.kind == "oneOf" && len(k.s.OneOf) > 1) {
			n.check = true // exclusivity and the if condition are checked, not built
		}
	}
	for _, s := range conj {
		if s.DynamicRef != nil || s.RecursiveRef != nil || s.Not != nil || s.UnevaluatedItems != nil ||
			s.UnevaluatedProperties != nil || len(s.DependentSchemas) > 0 || len(s.Dependencies) > 0 {
			n.check = true
		}
	}
	// Enumerations: candidates checked against every root; no further planning needed.
	if n.planEnum(conj) {
		return
	}
	// Choices: anyOf, oneOf, if/then/else, in schema order.
	for _, s := range conj {
		for _, kind := range []string{"anyOf", "oneOf", "if"} {
			k := choiceKey{s, kind}
			if n.done[k] {
				continue
			}
			opts := choiceOptions(s, kind)
			if len(opts) == 0 {
				continue
			}
			n.choice = &choicePoint{key: k, options: opts}
			n.branches = make([]atomic.Pointer[node], len(opts))
			n.check = false // the branch nodes check what needs checking
			return
		}
	}
	n.planTypes()
}

// gen draws a value for the node at the given nesting depth.
func (n *node) gen(st *state, depth int) (any, bool) {
	if n.unsat != "" || depth > hardDepth || !st.spend() {
		return nil, false
	}
	attempts := 1
	if n.check {
		attempts = 6
	}
	for a := 0; a < attempts; a++ {
		if a > 0 {
			n.g.stats.retries.Add(1)
		}
		v, ok := n.gen1(st, depth)
		if !ok {
			if st.work > maxWork {
				return nil, false
			}
			continue
		}
		if n.check && !validForAll(n.roots, v) {
			continue
		}
		return v, true
	}
	return nil, false
}

func (n *node) gen1(st *state, depth int) (any, bool) {
	t := st.t
	if n.enum != nil {
		return n.enum[draw.Int(t, 0, len(n.enum)-1, "enum")], true
	}
	if n.choice != nil {
		k := len(n.choice.options)
		first := draw.Int(t, 0, k-1, n.choice.key.kind)
		for j := 0; j < k; j++ {
			b := n.branch((first + j) % k)
			if b.unsat != "" {
				continue
			}
			if v, ok := b.gen(st, depth); ok {
				return v, true
			}
			if st.work > maxWork {
				return nil, false
			}
		}
		return nil, false
	}
	ty := n.pickType(t, depth)
	switch ty {
	case tNull:
		return nil, true
	case tBool:
		return draw.Bool(t, "bool"), true
	case tInt:
		return n.num.gen(t, true)
	case tNum:
		return n.num.gen(t, false)
	case tStr:
		v, ok := n.str.gen(t)
		if s, isStr := v.(string); ok && isStr && !st.spendBytes(len(s)) {
			return nil, false
		}
		return v, ok
	case tArr:
		return n.arr.gen(st, depth)
	case tObj:
		return n.obj.gen(st, depth)
	}
	return nil, false
}

// Depths: past softDepth the generator keeps values small (optional properties absent, arrays at
// their minimum); past hardDepth a branch fails and another is tried.
const (
	softDepth = 4
	hardDepth = 24
)
