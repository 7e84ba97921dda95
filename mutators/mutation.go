package mutators

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// The distortion classes. The four classic names are fixed.
const (
	StringifiedType   cases.Class = "stringified_type"
	FlattenedArray    cases.Class = "flattened_array"
	HallucinatedKey   cases.Class = "hallucinated_key"
	OutOfRangeEnum    cases.Class = "out_of_range_enum"
	MissingRequired   cases.Class = "missing_required"
	NullValue         cases.Class = "null_value"
	WrongType         cases.Class = "wrong_type"
	JSONInString      cases.Class = "json_in_string"
	WrappedScalar     cases.Class = "wrapped_scalar"
	WrapperNesting    cases.Class = "wrapper_nesting"
	RootNotObject     cases.Class = "root_not_object"
	MalformedJSON     cases.Class = "malformed_json"
	ImplementationDef cases.Class = "implementation_defined"
)

// A Mutator draws one distortion of a target.
type Mutator interface {
	Class() cases.Class
	// Mutate draws a distortion of tg: a case with the argument text, class, variant, place,
	// scope, keyword, reason, canary and the verdict owed (the caller names the tool). ok is
	// false when the class applies nowhere in this value (no place to distort, or the oracle
	// accepts every candidate: the schema lets it through).
	Mutate(t *rapid.T, tg *Target) (m cases.Case, ok bool)
}

// All returns every mutator, classic classes first.
func All() []Mutator {
	return []Mutator{stringified{}, flattened{}, hallucinated{}, outOfRange{}, missing{}, nullValue{},
		wrongType{}, jsonInString{}, wrappedScalar{}, wrapperNesting{}, rootNotObject{}, malformed{},
		implementationDefined{}}
}

// Classes lists the class names of All, in order.
func Classes() []cases.Class {
	var out []cases.Class
	for _, m := range All() {
		out = append(out, m.Class())
	}
	return out
}

// Select returns the mutators named in a comma-separated list ("" or "all": every one).
func Select(list string) ([]Mutator, error) {
	if list == "" || list == "all" {
		return All(), nil
	}
	var out []Mutator
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, m := range All() {
			if string(m.Class()) == name {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			var names []string
			for _, c := range Classes() {
				names = append(names, string(c))
			}
			return nil, fmt.Errorf("unknown mutator %q (known: %s)", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// Siblings is what the tools of one file declare, for distortions that borrow from a sibling:
// property names and string enum values. Build it once per file and share it.
type Siblings struct {
	keys  []string // every property name some tool declares, sorted
	enums []string // every string enum value some tool declares, sorted
}

// SiblingsOf collects what the tools declare, reading their schemas as JSON (no compiling):
// every "properties" key and every string in an "enum", at any depth.
func SiblingsOf(tools []tool.Tool) *Siblings {
	keys := map[string]bool{}
	enums := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch c := v.(type) {
		case map[string]any:
			if props, ok := c["properties"].(map[string]any); ok {
				for k := range props {
					keys[k] = true
				}
			}
			if enum, ok := c["enum"].([]any); ok {
				for _, e := range enum {
					if s, ok := e.(string); ok {
						enums[s] = true
					}
				}
			}
			for _, e := range c {
				walk(e)
			}
		case []any:
			for _, e := range c {
				walk(e)
			}
		}
	}
	for _, t := range tools {
		if v, err := jsonvalue.Parse(t.Parameters); err == nil {
			walk(v)
		}
	}
	return &Siblings{keys: sortedKeys(keys), enums: sortedKeys(enums)}
}

// Context is what mutators know about one tool: its oracle and what its sibling tools (the
// other tools of the same file) declare, for borrowed keys and enum values.
type Context struct {
	oracle      *validator.Gatekeeper
	readings    *validator.Oracle // the oracle's readings: formats as annotations, the binary64 rule
	siblingKeys []string          // property names tools of the file declare
	siblingEnum []string          // string enum values they declare

	offTarget    atomic.Int64 // candidates the oracle rejected for another reason than the one meant
	formatOnly   atomic.Int64 // candidates invalid only where format is asserted
	binary64Only atomic.Int64 // candidates whose verdict changes in the binary64 reading
	offMu        sync.Mutex
	offSample    []string
}

// NewContext prepares the context of the tool compiled in gk; sib (nil for none) is what the
// tools of its file declare.
func NewContext(gk *validator.Gatekeeper, sib *Siblings) *Context {
	c := &Context{oracle: gk, readings: gk.Oracle()}
	if sib != nil {
		c.siblingKeys, c.siblingEnum = sib.keys, sib.enums
	}
	return c
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DoublesDiffer reports whether the verdict on v (valid: what the oracle found) changes when
// every number in v and in the schema is read as its nearest binary64 double: such a case owes
// no verdict (Either), since RFC 8259 leaves that precision to implementations.
func (c *Context) DoublesDiffer(v any, valid bool) bool {
	if valid {
		return c.readings.DoublesDiffer(v, nil, nil)
	}
	return c.readings.DoublesDiffer(v, nil, c.readings.Locate(v))
}

// Binary64Only counts distortions that were invalid only where numbers are read exactly; a
// better one was drawn, or the case was kept as Either.
func (c *Context) Binary64Only() int64 { return c.binary64Only.Load() }

// OffTarget counts candidates the oracle rejected, but not for the keyword at the place the
// mutator meant; they are not kept as cases.
func (c *Context) OffTarget() int64 { return c.offTarget.Load() }

// Oracle is the gatekeeper that judges candidates.
func (c *Context) Oracle() *validator.Gatekeeper { return c.oracle }

// Target is a valid value prepared for mutation: every place in it, with the schemas that
// apply there.
type Target struct {
	ctx   *Context
	Value any    // the valid value (never changed)
	Text  []byte // its canonical argument text
	sites []*site
}

// Target prepares v, a value the oracle accepts, for mutation.
func (c *Context) Target(v any) *Target {
	tg := &Target{ctx: c, Value: v}
	tg.sites, tg.Text = annotate(c.oracle.Schema(), v)
	return tg
}

// DoublesDiffer is Context.DoublesDiffer for the Target's value, which the oracle accepts,
// read from its text: whether it may turn invalid when its numbers and the schema's are read
// as binary64 doubles.
func (tg *Target) DoublesDiffer() bool { return tg.ctx.readings.DoublesDiffer(tg.Value, tg.Text, nil) }

// candidate is a proposed value-level change, judged by the oracle before it is kept. The new
// value and the reason are built only when the candidate is tried.
type candidate struct {
	build func() any // the whole new value
	// replaces and with, when set, say that build puts with in place of the value at replaces:
	// the text is then the Target's with with's text spliced in, not the whole written again.
	replaces *site
	with     any
	// text, when set, writes the new value's text from the Target's (a key added or left out,
	// the arguments wrapped); nil from it means "write it all".
	text     func() []byte
	path     string        // place touched
	keywords []string      // keywords that make it invalid as meant
	variant  string        //
	reason   func() string // one line
	canary   string        //
	below    bool          // issues under the touched place count too (structural changes)
}

// text is the canonical text of value, the candidate c's: for a replacement, the Target's text
// with the new value's spliced in where the old one was (the same bytes as writing it all).
func (tg *Target) text(c candidate, value any) []byte {
	if s := c.replaces; s != nil && s.end > s.start {
		// The new value's text written in place, between the Target's text before and after.
		out := append(make([]byte, 0, len(tg.Text)+32), tg.Text[:s.start]...)
		return append(mustAppend(out, c.with), tg.Text[s.end:]...)
	}
	if c.text != nil {
		if b := c.text(); b != nil {
			return b
		}
	}
	return jsonvalue.MustMarshal(value)
}

// splice is the Target's text with the bytes from start to end replaced by with.
func (tg *Target) splice(start, end int, with []byte) []byte {
	out := make([]byte, 0, len(tg.Text)-(end-start)+len(with))
	return append(append(append(out, tg.Text[:start]...), with...), tg.Text[end:]...)
}

// children are the sites of the members of the object or items of the array at s, in order;
// ok is false when the walk stopped above them (too deep).
func (tg *Target) children(s *site) (out []*site, ok bool) {
	for _, c := range tg.sites {
		if c.parent == s {
			out = append(out, c)
		}
	}
	switch v := s.value.(type) {
	case map[string]any:
		return out, len(out) == len(v)
	case []any:
		return out, len(out) == len(v)
	}
	return nil, false
}

// keyStart is where the member of c starts in the Target's text: at its quoted key.
func (tg *Target) keyStart(c *site) int {
	return c.start - len(jsonvalue.AppendString(nil, c.name)) - 1
}

// withoutKey writes the text of the object at s without its member k (nil: not known here).
func (tg *Target) withoutKey(s *site, k string) func() []byte {
	return func() []byte {
		kids, ok := tg.children(s)
		if !ok {
			return nil
		}
		for _, c := range kids {
			if c.name != k {
				continue
			}
			from, to := tg.keyStart(c), c.end
			if tg.Text[from-1] == ',' {
				from-- // not the first member: its comma goes with it
			} else if to < len(tg.Text) && tg.Text[to] == ',' {
				to++ // the first of several: the comma after it goes
			}
			return tg.splice(from, to, nil)
		}
		return nil
	}
}

// withKey writes the text of the object at s with the member k: v added where its sorted
// place is (nil: not known here).
func (tg *Target) withKey(s *site, k string, v any) func() []byte {
	return func() []byte {
		kids, ok := tg.children(s)
		if !ok {
			return nil
		}
		member := mustAppend(append(jsonvalue.AppendString(nil, k), ':'), v)
		for _, c := range kids {
			if c.name == k {
				return nil // present: not an addition
			}
			if c.name > k {
				at := tg.keyStart(c)
				return tg.splice(at, at, append(member, ','))
			}
		}
		if len(kids) == 0 {
			return tg.splice(s.start+1, s.start+1, member)
		}
		return tg.splice(s.end-1, s.end-1, append([]byte{','}, member...))
	}
}

// wrapped writes the text of {k: the arguments}.
func (tg *Target) wrapped(k string) func() []byte {
	return func() []byte {
		out := append(jsonvalue.AppendString([]byte{'{'}, k), ':')
		return append(append(out, tg.Text...), '}')
	}
}

// at builds candidates that replace the value at s by v.
func at(tg *Target, s *site, v any) func() any {
	return func() any { return jsonvalue.Replaced(tg.Value, s.tokens(), v) }
}

// because makes a lazy reason.
func because(format string, args ...any) func() string {
	return func() string { return fmt.Sprintf(format, args...) }
}

// confirm asks the oracle about c and returns the mutation when it is rejected as meant.
func (tg *Target) confirm(class cases.Class, c candidate) (cases.Case, bool) {
	value := c.build()
	issues, where := tg.ctx.readings.LocateWhere(value)
	if len(issues) == 0 {
		return cases.Case{}, false
	}
	parent := jsonvalue.Parent(c.path)
	// Keywords in the order the candidate lists them, so the choice does not depend on the
	// order the oracle found the issues in.
	slices.SortStableFunc(issues, func(a, b validator.Issue) int {
		return slices.Index(c.keywords, a.Keyword) - slices.Index(c.keywords, b.Keyword)
	})
	for _, is := range issues {
		if !slices.Contains(c.keywords, is.Keyword) {
			continue
		}
		if is.Path == c.path || (c.path != "" && is.Path == parent) || (c.below && jsonvalue.IsPrefix(c.path, is.Path)) {
			scope := scopeOf(c.path, is.Path, is.Keyword, issues)
			// Read the other places from this validation before the oracle runs again.
			also := alsoInvalid(&cases.Case{Path: c.path, Scope: scope}, issues, where)
			// Draft 2020-12 makes format an annotation by default and lets validators assert
			// it: a distortion is kept only if it is invalid either way. Only a format issue
			// can vanish when format is an annotation.
			if hasKeyword(issues, "format") && tg.ctx.laxValid(value) {
				tg.ctx.formatOnly.Add(1)
				return cases.Case{}, false // invalid only where format is asserted
			}
			m := cases.Case{Args: tg.text(c, value), Class: class, Variant: c.variant, Path: c.path,
				Scope: scope, Also: also, Keyword: is.Keyword, Reason: c.reason(), Expect: cases.Reject,
				Canary: c.canary}
			if tg.ctx.readings.DoublesDiffer(value, m.Args, issues) {
				tg.ctx.binary64Only.Add(1)
				m.Expect = cases.Either
				m.Reason += " (as doubles the verdict differs: implementation-defined)"
			}
			return m, true
		}
	}
	if tg.ctx.offTarget.Add(1) <= 5 {
		tg.ctx.offMu.Lock()
		tg.ctx.offSample = append(tg.ctx.offSample, fmt.Sprintf("%s %s at %s (%v): %v", class, c.variant, c.path, c.keywords, issues))
		tg.ctx.offMu.Unlock()
	}
	return cases.Case{}, false
}

// laxValid reports whether v is valid with format as an annotation.
func (c *Context) laxValid(v any) bool {
	lax := c.readings.Lax()
	return lax != nil && lax.Valid(v)
}

// alsoInvalid returns the places besides m's own where the oracle finds value invalid, with
// their scopes: a gate that stops at its first error may report one of them. The original value
// was valid, so the distortion made each of them (a change that flips an if makes its then or
// else fail elsewhere). Places inside the branches of a failing anyOf, oneOf or not are not
// errors of the value, only of a branch; located holds every place (branches too), so the
// second validation runs only when some place lies outside m's.
func alsoInvalid(m *cases.Case, located []validator.Issue, where func() []validator.Issue) []cases.Place {
	outside := false
	for _, is := range located {
		outside = outside || !m.Locates(is.Path)
	}
	if !outside {
		return nil
	}
	issues := where()
	var out []cases.Place
	for _, is := range issues {
		if m.Locates(is.Path) {
			continue
		}
		p := cases.Place{Path: is.Path, Scope: scopeOf(is.Path, is.Path, is.Keyword, issues)}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// hasKeyword reports whether some issue is of keyword k.
func hasKeyword(issues []validator.Issue, k string) bool {
	for _, is := range issues {
		if is.Keyword == k {
			return true
		}
	}
	return false
}

// scopeOf is the Scope of a change at path that the oracle reports at at for keyword: the higher
// of the two, the object for a key it lacks or should not have, raised to any anyOf, oneOf, not,
// if or dependentSchemas above it that failed (a gate may only know that no branch fits).
func scopeOf(path, at, keyword string, issues []validator.Issue) string {
	scope := path
	if jsonvalue.IsPrefix(at, path) {
		scope = at
	}
	switch keyword {
	case "additionalProperties", "unevaluatedProperties", "propertyNames", "required", "dependentRequired", "false":
		// A key that should not be there, or is not: the object that holds it (or lacks it)
		// is where a gate knows it.
		if path != "" && jsonvalue.IsPrefix(jsonvalue.Parent(path), scope) {
			scope = jsonvalue.Parent(path)
		}
	}
	for _, o := range issues {
		switch o.Keyword {
		case "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "contains", "unevaluatedProperties", "unevaluatedItems":
			if jsonvalue.IsPrefix(o.Path, scope) {
				scope = o.Path
			}
		}
	}
	return scope
}

// FormatOnly counts candidates that were invalid only where format is asserted; they are not
// kept as cases.
func (c *Context) FormatOnly() int64 { return c.formatOnly.Load() }

// OffTargetSamples returns the first few off-target candidates, described.
func (c *Context) OffTargetSamples() []string {
	c.offMu.Lock()
	defer c.offMu.Unlock()
	return append([]string(nil), c.offSample...)
}

// firstConfirmed tries the candidates made by propose for the places in order, starting at a
// drawn place, and returns the first the oracle confirms: the place is uniform over the places
// where the class applies.
func firstConfirmed(t *rapid.T, tg *Target, class cases.Class, places []*site, propose func(t *rapid.T, s *site) []candidate) (cases.Case, bool) {
	if len(places) == 0 {
		return cases.Case{}, false
	}
	start := draw.Int(t, 0, len(places)-1, "place")
	tries := 0
	var fallback cases.Case
	found := false
	for i := 0; i < len(places) && tries < 24; i++ {
		s := places[(start+i)%len(places)]
		cands := propose(t, s)
		if len(cands) == 0 {
			continue
		}
		first := draw.Int(t, 0, len(cands)-1, "variant")
		for j := 0; j < len(cands) && tries < 24; j++ {
			tries++
			if m, ok := tg.confirm(class, cands[(first+j)%len(cands)]); ok {
				if m.Expect != cases.Either {
					return m, true
				}
				// Invalid only where numbers are exact: look on for one that holds as doubles
				// too, and keep this one as Either if none does.
				if !found {
					fallback, found = m, true
				}
			}
		}
	}
	return fallback, found
}

// canary draws a canary string: unlikely in any schema, easy to find in a message.
// holdsText reports whether some string or key in v contains s (a canary: letters, digits and
// a hyphen, which JSON writes as they are).
func holdsText(v any, s string) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, s)
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, s) || holdsText(e, s) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsText(e, s) {
				return true
			}
		}
	}
	return false
}

func canary(t *rapid.T) string {
	return fmt.Sprintf("tpc-%08x", draw.Uint32(t, "canary"))
}
