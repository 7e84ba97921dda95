package mutators

import (
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
	"github.com/toolproof/toolproof/validator"
)

// The classifier is the taxonomy read backwards: each class's recogniser sits beside its
// mutator (recognise_<class>.go) and undoes, or names, what the mutator does. A call is read in
// three layers, as the mutators distort it: its text (malformed_json, implementation_defined),
// its root (root_not_object), then its value, where distortions are undone one at a time while
// each undoing leaves the oracle fewer issues, and the issues left are named by keyword.

// Verdict is what Classify finds a call to be.
type Verdict string

// The verdicts of a classified call.
const (
	Valid       Verdict = "valid"        // the oracle accepts it
	Invalid     Verdict = "invalid"      // rejected, and every issue named by a class
	Either      Verdict = "either"       // its verdict depends on how numbers (or formats) are read, or RFC 8259 leaves it open
	Unexplained Verdict = "unexplained"  // rejected, with issues no class names
	UnknownTool Verdict = "unknown_tool" // no tool of that name (set by callers that map names)
)

// Distortion is one distortion found in a call: its class and variant at a JSON Pointer.
type Distortion struct {
	Class   cases.Class `json:"class"`
	Variant string      `json:"variant"`
	// Alike lists the other variants of the class that write the same text here (the string
	// "20.0" is "exact" for the number 20.0 and "decimal" for 20).
	Alike   []string `json:"alike,omitempty"`
	Path    string   `json:"path"`
	Keyword string   `json:"keyword,omitempty"` // the keyword the oracle reported, when one did
}

// Is reports whether d is of class c and variant v, or writes the same text as it (an Alike
// "variant", or "class:variant" of another class; "class:variant@pointer" names the same text
// read at another place).
func (d Distortion) Is(c cases.Class, v string) bool {
	if d.Class == c && (d.Variant == v || slices.Contains(d.Alike, v)) {
		return true
	}
	return slices.Contains(d.Alike, string(c)+":"+v)
}

// Classification is what Classify finds in one call.
type Classification struct {
	Verdict     Verdict           `json:"verdict"`
	Distortions []Distortion      `json:"classes,omitempty"`
	Issues      []validator.Issue `json:"issues,omitempty"` // the oracle's issues no class names (Unexplained)
	Reason      string            `json:"reason,omitempty"` // why Either, in a few words
}

// Names reports whether c reads the mutation m back: the verdict m owes (Invalid for a
// must-reject case, Either for an either one) and m's class and variant at m's place (or, read
// as another class that writes the same text, at a member inside it).
func (c Classification) Names(m cases.Case) bool {
	want := Invalid
	if m.Expect == cases.Either {
		want = Either
	}
	if c.Verdict != want {
		return false
	}
	for _, d := range c.Distortions {
		if d.Is(m.Class, m.Variant) && (d.Path == m.Path || (d.Class != m.Class && jsonvalue.IsPrefix(m.Path, d.Path))) {
			return true
		}
		if slices.Contains(d.Alike, string(m.Class)+":"+m.Variant+"@"+m.Path) {
			return true
		}
	}
	return false
}

// maxUndo bounds the distortions undone in one call.
const maxUndo = 32

// Classify reads one call's raw argument text against the Context's tool and names its
// distortions: the verdict, and for an invalid call the class and variant of each distortion at
// its place. It is safe for concurrent use.
func (c *Context) Classify(args []byte) Classification {
	return c.classify(args, defaultRecognisers())
}

// recognisers are the classes' recognisers a classification uses: the text and root layers'
// and the value's, in order (a test breaks one on purpose).
type recognisers struct {
	text       func(b []byte) (v any, parsed bool, ds []Distortion, either string)
	root       func(v any) (obj any, ds []Distortion, ok bool)
	undoers    []undoer    // the classes that can be undone, in the order they are tried
	explainers []explainer // the classes that name what no undoing removes, in order
}

func defaultRecognisers() recognisers {
	return recognisers{text: readText, root: readRoot,
		undoers: []undoer{wrapperNesting{}, jsonInString{}, stringified{}, wrappedScalar{}, wrongType{},
			flattened{}, hallucinated{}},
		explainers: []explainer{missing{}, nullValue{}, outOfRange{}, wrongType{}, hallucinated{}}}
}

// classify is Classify with the recognisers rs.
func (c *Context) classify(args []byte, rs recognisers) Classification {
	var out Classification
	v, parsed, ds, either := rs.text(args)
	out.Distortions = ds
	if either != "" {
		out.Verdict, out.Reason = Either, either
		return out
	}
	if !parsed {
		out.Verdict = Invalid
		return out
	}
	v, ds, ok := rs.root(v)
	out.Distortions = append(out.Distortions, ds...)
	if !ok {
		out.Verdict = Invalid
		return out
	}
	return c.classifyValue(v, out, rs)
}

// classifyValue classifies an arguments object, after what was found in its text and root.
func (c *Context) classifyValue(v any, out Classification, rs recognisers) Classification {
	issues := c.readings.Where(v)
	if issues == nil {
		out.Verdict = Valid
		if len(out.Distortions) > 0 {
			out.Verdict = Invalid
		} else if c.DoublesDiffer(v, true) {
			out.Verdict, out.Reason = Either, "valid exactly, not when its numbers are read as doubles"
		}
		return out
	}
	if c.DoublesDiffer(v, false) {
		out.Reason = "invalid exactly, not when its numbers are read as doubles"
	} else if c.laxValid(v) {
		out.Reason = "invalid only where format is asserted"
	}
	r := &reading{ctx: c, rs: rs, value: v, issues: issues}
	for i := 0; i < maxUndo && r.undoOne(); i++ {
	}
	var left []validator.Issue
	if r.issues != nil {
		left = r.explain()
	}
	out.Distortions = append(out.Distortions, r.found...)
	if out.Reason != "" {
		out.Verdict = Either // what was found is named, but no verdict is owed
		return out
	}
	if len(left) > 0 {
		out.Verdict = Unexplained
		out.Issues = c.oracle.Issues(r.value)
		return out
	}
	out.Verdict = Invalid
	return out
}

// reading is the state of one call's value as its distortions are undone.
type reading struct {
	ctx    *Context
	rs     recognisers
	value  any               // the value, with the distortions found so far undone
	issues []validator.Issue // the oracle's issues with it (Where: alternatives once)
	found  []Distortion

	partial       []string          // the places of the partial undoings kept
	locatedIssues []validator.Issue // Locate(value), once locatedDone
	locatedDone   bool
}

// undo is one proposed undoing of a distortion: the value with it undone.
type undo struct {
	class   cases.Class
	variant string
	alike   []string // other variants the same undoing also is
	path    string
	value   func() any
	// partial: kept when no issue is left at path and none is added outside it, even if the
	// undone value has more issues inside (what was meant there is known, not all of it).
	partial bool
}

// undoer is a class whose distortions can be undone: the original value is in the call.
type undoer interface {
	undo(r *reading, s *site) []undo
}

// explainer is a class that names an issue the oracle reports at a site.
type explainer interface {
	explain(r *reading, is validator.Issue, s *site) ([]Distortion, bool)
}

// undoOne applies the best undoing the oracle confirms, over every class and flagged site: one
// that leaves the place right and fewer issues before a partial one, then the fewest issues left,
// then (partial ones) the deepest, then the order of undoers and sites. It reports whether one
// was found.
func (r *reading) undoOne() bool {
	if r.issues == nil {
		return false
	}
	sites, _ := annotate(r.ctx.oracle.Schema(), r.value)
	var us []undo
	for _, u := range r.rs.undoers {
		for _, s := range sites {
			if r.flagged(s) {
				us = append(us, u.undo(r, s)...)
			}
		}
	}
	return r.tryUndos(us)
}

// flagged reports whether some issue (in a branch of an alternative too) is at s or inside it.
func (r *reading) flagged(s *site) bool {
	for _, is := range r.located() {
		if jsonvalue.IsPrefix(s.path, is.Path) {
			return true
		}
	}
	return false
}

// tryUndos applies the best of us (see undoOne); the other variants of its class at its place
// that leave as many issues (or, both partial, that the oracle confirms too) are its Alike.
func (r *reading) tryUndos(us []undo) bool {
	values := make([]any, len(us))
	issues := make([][]validator.Issue, len(us))
	best := -1
	better := func(i, j int) bool { // i before j
		if us[i].partial != us[j].partial {
			return !us[i].partial
		}
		if len(issues[i]) != len(issues[j]) || !us[i].partial {
			return len(issues[i]) < len(issues[j]) // a tie of whole undoings goes to the first
		}
		return strings.Count(us[i].path, "/") > strings.Count(us[j].path, "/") // the smaller change
	}
	for i, u := range us {
		values[i] = u.value()
		issues[i] = r.ctx.readings.Where(values[i])
		if r.improves(u, issues[i]) && (best < 0 || better(i, best)) {
			best = i
		}
	}
	if best < 0 {
		return false
	}
	u := us[best]
	alike := slices.Clone(u.alike)
	for i, o := range us {
		// A reading as good, or (at a place only partly known) one that also holds.
		good := len(issues[i]) == len(issues[best]) || (u.partial && o.partial && r.improves(o, issues[i]))
		if good && o.class == u.class && o.variant != u.variant && o.path == u.path && !slices.Contains(alike, o.variant) {
			alike = append(alike, o.variant)
		}
	}
	if u.partial {
		alike = append(alike, r.refusedMember(u.path)...)
	}
	d := Distortion{Class: u.class, Variant: u.variant, Path: u.path, Alike: alike, Keyword: gone(r.issues, issues[best])}
	r.found = append(r.found, d)
	if u.partial {
		r.partial = append(r.partial, u.path)
	}
	r.value, r.issues, r.locatedDone = values[best], issues[best], false
	return true
}

// refusedMember names, for a member some branch of an alternative refuses as a key, the
// hallucinated_key reading of it: where branches declare different keys, a key of one added to
// an object of another reads as both.
func (r *reading) refusedMember(path string) []string {
	if path == "" || !r.issueAt(path, keyKeywords...) {
		return nil
	}
	toks, err := jsonvalue.SplitPointer(path)
	if err != nil {
		return nil
	}
	v, _ := r.keyVariant(toks[len(toks)-1], nil)
	return []string{string(HallucinatedKey) + ":" + v}
}

// improves reports whether an undoing that leaves issues is kept: no type issue at its place,
// and fewer issues, or for a partial undoing no more issues outside its place.
func (r *reading) improves(u undo, issues []validator.Issue) bool {
	if slices.ContainsFunc(issues, func(is validator.Issue) bool {
		return is.Path == u.path && slices.Contains(typeKeywords, is.Keyword)
	}) {
		return false // the place is still not of a type the schema takes
	}
	if len(issues) < len(r.issues) {
		return true
	}
	if !u.partial {
		return false
	}
	outside := func(is []validator.Issue) (n int, at bool) {
		for _, x := range is {
			if x.Path == u.path {
				at = at || slices.Contains(typeKeywords, x.Keyword)
			} else if !jsonvalue.IsPrefix(u.path, x.Path) {
				n++
			}
		}
		return n, at
	}
	before, _ := outside(r.issues)
	after, at := outside(issues)
	return !at && after <= before && r.issueAt(u.path, "type")
}

// gone is the keyword of the first issue of before that after no longer has.
func gone(before, after []validator.Issue) string {
	for _, b := range before {
		if !slices.ContainsFunc(after, func(a validator.Issue) bool { return a.Path == b.Path && a.Keyword == b.Keyword }) {
			return b.Keyword
		}
	}
	return ""
}

// explain names each issue left with an explainer's class; it returns the issues none names.
// An alternative (anyOf, oneOf, not) that no branch takes is named by the deepest issues of its
// branches: the branch that got furthest says what was meant.
func (r *reading) explain() []validator.Issue {
	sites, _ := annotate(r.ctx.oracle.Schema(), r.value)
	byPath := map[string]*site{}
	for _, s := range sites {
		byPath[s.path] = s
	}
	var unnamed, left []validator.Issue
	for _, is := range r.issues {
		named := false
		for _, inner := range r.deepest(is) {
			named = r.name(inner, byPath) || named
		}
		if !named && !r.name(is, byPath) {
			unnamed = append(unnamed, is)
		}
	}
	for _, is := range unnamed {
		if !r.consequence(is) {
			left = append(left, is)
		}
	}
	return left
}

// consequence reports whether is follows from a distortion found at or inside the place it is
// at (a contains that no item meets once one changed, an if whose branch flipped), or lies
// inside what a partial undoing put back.
func (r *reading) consequence(is validator.Issue) bool {
	if slices.ContainsFunc(r.partial, func(p string) bool { return jsonvalue.IsPrefix(p, is.Path) }) {
		return true // inside a partial undoing: what was meant there is not all known
	}
	switch is.Keyword {
	case "contains", "minContains", "maxContains", "if", "then", "else", "dependentSchemas",
		"unevaluatedProperties", "unevaluatedItems", "anyOf", "oneOf", "not":
	default:
		return false
	}
	return slices.ContainsFunc(r.found, func(d Distortion) bool { return jsonvalue.IsPrefix(is.Path, d.Path) })
}

// name records the distortion the first explainer finds for is; false when none does.
func (r *reading) name(is validator.Issue, byPath map[string]*site) bool {
	s := byPath[is.Path]
	if s == nil && is.Path != "" {
		s = byPath[jsonvalue.Parent(is.Path)] // a member the object lacks
	}
	if s == nil {
		return false
	}
	for _, e := range r.rs.explainers {
		ds, ok := e.explain(r, is, s)
		if !ok {
			continue
		}
		for _, d := range ds {
			if !slices.ContainsFunc(r.found, func(f Distortion) bool { return f.Class == d.Class && f.Path == d.Path && f.Variant == d.Variant }) {
				r.found = append(r.found, d)
			}
		}
		return true
	}
	return false
}

// branchKeyword reports whether k is the keyword of an alternative, whose issue stands for
// those of its branches.
func branchKeyword(k string) bool {
	switch k {
	case "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas":
		return true
	}
	return false
}

// deepest returns, for an alternative's issue, the issues of its branches (Locate) deepest in
// the value at or below it; nil for another issue.
func (r *reading) deepest(is validator.Issue) []validator.Issue {
	if !branchKeyword(is.Keyword) {
		return nil
	}
	var out []validator.Issue
	depth := -1
	for _, in := range r.located() {
		if branchKeyword(in.Keyword) || !jsonvalue.IsPrefix(is.Path, in.Path) {
			continue
		}
		d := strings.Count(in.Path, "/")
		switch {
		case d > depth:
			out, depth = []validator.Issue{in}, d
		case d == depth:
			out = append(out, in)
		}
	}
	return out
}

// located is the oracle's issues with the value, branches of alternatives included.
func (r *reading) located() []validator.Issue {
	if !r.locatedDone {
		r.locatedIssues, r.locatedDone = r.ctx.readings.Locate(r.value), true
	}
	return r.locatedIssues
}

// keywordsAt are the keywords of the issues at path, alternatives' branches included.
func (r *reading) keywordsAt(path string) []string {
	var out []string
	for _, is := range r.located() {
		if is.Path == path && !slices.Contains(out, is.Keyword) {
			out = append(out, is.Keyword)
		}
	}
	return out
}

// replace undoes at s: the value with v in place of s's.
func (r *reading) replace(s *site, v any) func() any {
	root := r.value
	return func() any { return jsonvalue.Replaced(root, s.tokens(), v) }
}

// onlyString reports whether the schemas at s (and the branches of their alternatives) take
// strings and nothing else.
func (s *site) onlyString() bool {
	if !s.mayBe("string") {
		return false
	}
	for _, t := range []string{"null", "boolean", "object", "array", "number"} {
		if s.mayBe(t) || s.takes(t) {
			return false
		}
	}
	return true
}

// typeNames are the JSON types the schemas at s take (their enum's, else their types'), "any"
// when they name none; integer is number, as jsonvalue.TypeName says.
func (s *site) typeNames() []string {
	var out []string
	for _, t := range []string{"null", "boolean", "object", "array", "number", "string"} {
		if s.mayBe(t) || (t == "number" && s.mayBe("integer")) {
			out = append(out, t)
		}
	}
	if len(out) == 6 {
		if out = s.branchTypes(); len(out) == 0 {
			return []string{"any"}
		}
	}
	return out
}

// branchTypes are the types the branches of the anyOf and oneOf at s name (their enums' types
// where they name none), in the order of typeNames.
func (s *site) branchTypes() []string {
	set := map[string]bool{}
	for _, sch := range s.schemas {
		for _, bs := range [2][]*jsonschema.Schema{sch.AnyOf, sch.OneOf} {
			for _, b := range bs {
				for _, x := range schemawalk.Conjunction([]*jsonschema.Schema{b}, nil) {
					schemaTypes(x, set)
				}
			}
		}
	}
	var out []string
	for _, t := range []string{"null", "boolean", "object", "array", "number", "string"} {
		if set[t] {
			out = append(out, t)
		}
	}
	return out
}

// schemaTypes adds the types sch names (integer as number), or its enum's or const's.
func schemaTypes(sch *jsonschema.Schema, set map[string]bool) {
	switch {
	case sch.Types != nil:
		for _, t := range sch.Types.ToStrings() {
			if t == "integer" {
				t = "number"
			}
			set[t] = true
		}
	case sch.Enum != nil:
		for _, e := range sch.Enum.Values {
			set[jsonvalue.TypeName(e)] = true
		}
	case sch.Const != nil:
		set[jsonvalue.TypeName(*sch.Const)] = true
	}
}

// takes reports whether the schemas at s (or the branches of their alternatives) name type t.
func (s *site) takes(t string) bool {
	return slices.Contains(s.typeNames(), t) || slices.Contains(s.branchTypes(), t)
}

// admitting returns the branches whose type takes v's (integer as number); for an object, of
// those, the ones that declare the most of its keys: the branch that was meant.
func admitting(branches []*jsonschema.Schema, v any) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	ty := jsonvalue.TypeName(v)
	for _, b := range branches {
		if b.Bool != nil {
			continue
		}
		if b.Types == nil {
			out = append(out, b)
			continue
		}
		ts := b.Types.ToStrings()
		if slices.Contains(ts, ty) || (ty == "number" && slices.Contains(ts, "integer")) {
			out = append(out, b)
		}
	}
	obj, ok := v.(map[string]any)
	if !ok || len(out) < 2 {
		return out
	}
	score := func(b *jsonschema.Schema) int {
		n := 0
		for k := range obj {
			for _, x := range schemawalk.Conjunction([]*jsonschema.Schema{b}, nil) {
				if _, ok := x.Properties[k]; ok {
					n++
					break
				}
			}
		}
		return n
	}
	best := slices.MaxFunc(out, func(a, b *jsonschema.Schema) int { return score(a) - score(b) })
	top := score(best)
	return slices.DeleteFunc(out, func(b *jsonschema.Schema) bool { return score(b) < top })
}
