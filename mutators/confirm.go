package mutators

import (
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

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
	variant  string        // the form of the class (corpus.Case.Variant)
	reason   func() string // one line
	canary   string        // planted string no message may repeat (corpus.Case.Canary)
	below    bool          // issues under the touched place count too (structural changes)
}

// because makes a lazy reason.
func because(format string, args ...any) func() string {
	return func() string { return fmt.Sprintf(format, args...) }
}

// confirm asks the oracle about c and returns the mutation when it is rejected as meant.
func (tg *Target) confirm(class corpus.Class, c candidate) (corpus.Case, bool) {
	value := c.build()
	issues, where := tg.ctx.readings.CausesAndErrors(value)
	if len(issues) == 0 {
		return corpus.Case{}, false
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
		if is.Path == c.path || (c.path != "" && is.Path == parent) ||
			(c.below && jsonvalue.IsPrefix(c.path, is.Path)) {
			scope := scopeOf(c.path, is.Path, is.Keyword, issues)
			// Read the other places from this validation before the oracle runs again.
			also := alsoInvalid(&corpus.Case{Path: c.path, Scope: scope}, issues, where)
			// Draft 2020-12 makes format an annotation by default and lets validators assert
			// it: a distortion is kept only if it is invalid either way. Only a format issue
			// can vanish when format is an annotation.
			if hasKeyword(issues, "format") && tg.ctx.laxValid(value) {
				tg.ctx.formatOnly.Add(1)
				return corpus.Case{}, false // invalid only where format is asserted
			}
			m := corpus.Case{Args: tg.text(c, value), Class: class, Variant: c.variant, Path: c.path,
				Scope: scope, Also: also, Keyword: is.Keyword, Reason: c.reason(), Expect: corpus.Reject,
				Canary: c.canary}
			if tg.ctx.readings.DoublesDiffer(value, m.Args, issues) {
				tg.ctx.binary64Only.Add(1)
				m.Expect = corpus.Either
				m.Reason += " (as doubles the verdict differs: implementation-defined)"
			}
			return m, true
		}
	}
	if tg.ctx.offTarget.Add(1) <= 5 {
		tg.ctx.offMu.Lock()
		tg.ctx.offSample = append(tg.ctx.offSample,
			fmt.Sprintf("%s %s at %s (%v): %v", class, c.variant, c.path, c.keywords, issues))
		tg.ctx.offMu.Unlock()
	}
	return corpus.Case{}, false
}

// alsoInvalid returns the places besides m's own where the oracle finds value invalid, with
// their scopes: a gate that stops at its first error may report one of them. The original value
// was valid, so the distortion made each of them (a change that flips an if makes its then or
// else fail elsewhere). Places inside the branches of a failing anyOf, oneOf or not are not
// errors of the value, only of a branch; located holds every place (branches too), so the
// second validation runs only when some place lies outside m's.
func alsoInvalid(m *corpus.Case, located []validator.Issue, where func() []validator.Issue) []corpus.Place {
	outside := false
	for _, is := range located {
		outside = outside || !m.Locates(is.Path)
	}
	if !outside {
		return nil
	}
	issues := where()
	var out []corpus.Place
	for _, is := range issues {
		if m.Locates(is.Path) {
			continue
		}
		p := corpus.Place{Path: is.Path, Scope: scopeOf(is.Path, is.Path, is.Keyword, issues)}
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
		case "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "contains",
			"unevaluatedProperties", "unevaluatedItems":
			if jsonvalue.IsPrefix(o.Path, scope) {
				scope = o.Path
			}
		}
	}
	return scope
}

// firstConfirmed tries the candidates made by propose for the places in order, starting at a
// drawn place, and returns the first the oracle confirms: the place is uniform over the places
// where the class applies.
func firstConfirmed(t *rapid.T, tg *Target, class corpus.Class, places []*site,
	propose func(t *rapid.T, s *site) []candidate) (corpus.Case, bool) {
	if len(places) == 0 {
		return corpus.Case{}, false
	}
	start := draw.Int(t, 0, len(places)-1, "place")
	tries := 0
	var fallback corpus.Case
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
				if m.Expect != corpus.Either {
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

// canary draws a canary string: unlikely in any schema, easy to find in a message.
func canary(t *rapid.T) string {
	return fmt.Sprintf("tpc-%08x", draw.Uint32(t, "canary"))
}
