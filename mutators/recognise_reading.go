package mutators

import (
	"slices"
	"strings"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// undoing is the state of one call's value as its distortions are undone.
type undoing struct {
	ctx    *Context
	rs     recognisers
	value  any               // the value, with the distortions found so far undone
	issues []validator.Issue // the oracle's issues with it (Errors: alternatives once)
	found  []Distortion

	partial       []string          // the places of the partial undoings kept
	locatedIssues []validator.Issue // Causes(value), once locatedDone
	locatedDone   bool
}

// undo is one proposed undoing of a distortion: the value with it undone.
type undo struct {
	class   corpus.Class
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
	undo(r *undoing, s *site) []undo
}

// explainer is a class that names an issue the oracle reports at a site.
type explainer interface {
	explain(r *undoing, is validator.Issue, s *site) ([]Distortion, bool)
}

// undoOne applies the best undoing the oracle confirms, over every class and flagged site: one
// that leaves the place right and fewer issues before a partial one, then the fewest issues left,
// then (partial ones) the deepest, then the order of undoers and sites. It reports whether one
// was found.
func (r *undoing) undoOne() bool {
	if r.issues == nil {
		return false
	}
	sites, _ := annotate(r.ctx.Oracle().Schema(), r.value)
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
func (r *undoing) flagged(s *site) bool {
	for _, is := range r.located() {
		if jsonvalue.IsPrefix(s.path, is.Path) {
			return true
		}
	}
	return false
}

// tryUndos applies the best of us (see undoOne); the other variants of its class at its place
// that leave as many issues (or, both partial, that the oracle confirms too) are its Alike.
func (r *undoing) tryUndos(us []undo) bool {
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
		issues[i] = r.ctx.readings.Errors(values[i])
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
		if good && o.class == u.class && o.variant != u.variant && o.path == u.path &&
			!slices.Contains(alike, o.variant) {
			alike = append(alike, o.variant)
		}
	}
	if u.partial {
		alike = append(alike, r.refusedMember(u.path)...)
	}
	d := Distortion{Class: u.class, Variant: u.variant, Path: u.path, Alike: alike,
		Keyword: gone(r.issues, issues[best])}
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
func (r *undoing) refusedMember(path string) []string {
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
func (r *undoing) improves(u undo, issues []validator.Issue) bool {
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
		if !slices.ContainsFunc(after,
			func(a validator.Issue) bool { return a.Path == b.Path && a.Keyword == b.Keyword }) {
			return b.Keyword
		}
	}
	return ""
}

// explain names each issue left with an explainer's class; it returns the issues none names.
// An alternative (anyOf, oneOf, not) that no branch takes is named by the deepest issues of its
// branches: the branch that got furthest says what was meant.
func (r *undoing) explain() []validator.Issue {
	sites, _ := annotate(r.ctx.Oracle().Schema(), r.value)
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
func (r *undoing) consequence(is validator.Issue) bool {
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
func (r *undoing) name(is validator.Issue, byPath map[string]*site) bool {
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
			if !slices.ContainsFunc(r.found,
				func(f Distortion) bool { return f.Class == d.Class && f.Path == d.Path && f.Variant == d.Variant }) {
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

// deepest returns, for an alternative's issue, the issues of its branches (Causes) deepest in
// the value at or below it; nil for another issue.
func (r *undoing) deepest(is validator.Issue) []validator.Issue {
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
func (r *undoing) located() []validator.Issue {
	if !r.locatedDone {
		r.locatedIssues, r.locatedDone = r.ctx.readings.Causes(r.value), true
	}
	return r.locatedIssues
}

// keywordsAt are the keywords of the issues at path, alternatives' branches included.
func (r *undoing) keywordsAt(path string) []string {
	var out []string
	for _, is := range r.located() {
		if is.Path == path && !slices.Contains(out, is.Keyword) {
			out = append(out, is.Keyword)
		}
	}
	return out
}

// replace undoes at s: the value with v in place of s's.
func (r *undoing) replace(s *site, v any) func() any {
	root := r.value
	return func() any { return jsonvalue.Replaced(root, s.tokens(), v) }
}
