package audit

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/uniq"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
)

// Status is what the audit found for one class at one place.
type Status string

// The verdicts.
const (
	Passes        Status = "passes"         // a distortion of the class there is accepted by the oracle
	Caught        Status = "caught"         // the distortions built there are rejected by the oracle
	NotDetermined Status = "not_determined" // no distortion of the class could be built there
)

// Witness is one concrete distortion and the oracle's verdict on it.
type Witness struct {
	Args    string `json:"args"`              // the distorted argument text, as a gate would receive it
	Path    string `json:"path"`              // the JSON Pointer of the place touched in Args
	Variant string `json:"variant,omitempty"` // which form of the class
	Reason  string `json:"reason"`            // what was changed
	Keyword string `json:"keyword,omitempty"` // rejected: the keyword of the oracle's first issue
	Issue   string `json:"issue,omitempty"`   // rejected: the oracle's first issue
	From    string `json:"from"`              // "mutator" (a case run sends) or "probe" (built by the audit)
}

// Place is one verdict of the audit: at Path (a JSON Pointer where "*" stands for any array
// index or map key) the class passes, is caught, or was not determined, why, and the witness.
type Place struct {
	Class  corpus.Class `json:"class"`
	Path   string       `json:"path"`
	Status Status       `json:"verdict"`
	Why    string       `json:"why"`
	// Witness backs the verdict: accepted for passes, rejected for caught, nil otherwise.
	Witness *Witness `json:"witness,omitempty"`
	// Rejected is, for a place that passes, a distortion of the class there that is rejected
	// all the same (the schema catches some forms, not all).
	Rejected *Witness `json:"rejected,omitempty"`
	// Unconstrained: the place passes only because it declares nothing for the class to leave
	// (a free string, a number without bounds): what passes is another valid value, not a
	// distortion a model sends (ModelDistortions leaves it out).
	Unconstrained bool `json:"unconstrained,omitempty"`
}

// Report is the audit of one tool.
type Report struct {
	Tool string `json:"tool"`
	// Unsatisfiable says why no arguments can be valid (generate.New found it); the tool then
	// has no places, since every call to it is rejected whatever it holds.
	Unsatisfiable string `json:"unsatisfiable,omitempty"`
	// CannotConstruct says why the generator cannot construct a valid value although the
	// schema may have some (a pattern beyond it, without a matching example); no places then.
	CannotConstruct string `json:"cannot_construct,omitempty"`
	// OverBudget says why the audit of the tool stopped before its end (the oracle's work went
	// past Options.Budget); the tool then has no places, and audit lists it as skipped.
	OverBudget string `json:"over_budget,omitempty"`
	// Drawn is the number of valid values the witnesses were built from.
	Drawn  int     `json:"drawn"`
	Places []Place `json:"places"`
}

// Options tune an audit. The zero value is the default.
type Options struct {
	Values   int                // valid values drawn per tool (0: 12)
	Seed     int                // the first value's seed; value i uses Seed+i
	Siblings *mutators.Siblings // what the tools of the file declare (nil: nothing borrowed)
	// Budget bounds the oracle's work on one tool, in bytes of argument text validated
	// (0: MaxOracleBytes). It is counted, never timed, so the same tool gives the same report.
	Budget int64
	// Classes are the classes audited, with their mutators and audit hints (nil:
	// mutators.Default()).
	Classes *mutators.Registry
}

// sample is one drawn valid value and the mutators' confirmed distortions of it.
type sample struct {
	value any
	text  []byte
	muts  []corpus.Case
}

// Tool audits the tool compiled in gk. The same tool and options give the same report.
func Tool(gk *oracle.Gatekeeper, opts Options) Report {
	rep := Report{Tool: gk.Tool().Name, Places: []Place{}}
	g, err := generate.New(gk)
	if err != nil {
		switch {
		case errors.Is(err, generate.ErrUnsatisfiable):
			rep.Unsatisfiable = unsatReason(err)
		case errors.Is(err, generate.ErrCannotConstruct):
			rep.CannotConstruct = err.Error()
		default:
			rep.Unsatisfiable = err.Error()
		}
		return rep
	}
	n := opts.Values
	if n <= 0 {
		n = 12
	}
	reg := opts.Classes
	if reg == nil {
		reg = mutators.Default()
	}
	ctx := mutators.NewContext(gk, opts.Siblings)
	ms := reg.Mutators()
	draw := rapid.Custom(func(t *rapid.T) sample {
		v, ok := g.Draw(t)
		if !ok {
			return sample{}
		}
		tg := ctx.Target(v)
		s := sample{value: v, text: tg.Text}
		// A mutator picks its place by drawing: a few tries per value reach more places.
		for _, m := range ms {
			for try := 0; try < 3; try++ {
				if mu, ok := m.Mutate(t, tg); ok && mu.Expect == corpus.Reject {
					s.muts = append(s.muts, mu)
				}
			}
		}
		return s
	})
	var samples []sample
	for i := 0; i < n; i++ {
		if s := draw.Example(opts.Seed + i); s.text != nil {
			samples = append(samples, s)
		}
	}
	rep.Drawn = len(samples)
	// Short values first, so the witnesses shown are short.
	sort.SliceStable(samples, func(a, b int) bool { return len(samples[a].text) < len(samples[b].text) })
	j := newJudge(gk, opts.Budget)
	grps := groups(analyse(gk.Schema(), reg), reg)
	for i, grp := range grps {
		pl := j.decide(grp, samples)
		if j.left < 0 {
			rep.Places = []Place{}
			rep.OverBudget = fmt.Sprintf("the oracle's work went past its budget of %d bytes of arguments "+
				"(audit.MaxOracleBytes) "+
				"at place %d of %d, on values of up to %d bytes; audit the tool's parts apart", j.budget, i+
				1, len(grps), maxText(samples))
			return rep
		}
		rep.Places = append(rep.Places, pl)
	}
	return rep
}

// unsatReason is generate's error without its "tool ...: schema is unsatisfiable: " prefix.
func unsatReason(err error) string {
	s := err.Error()
	if i := strings.Index(s, generate.ErrUnsatisfiable.Error()); i >= 0 {
		s = strings.TrimPrefix(s[i+len(generate.ErrUnsatisfiable.Error()):], ": ")
	}
	return s
}

// group is the hypotheses about one class at one place (alternatives may give several).
type group struct {
	class    corpus.Class
	hints    mutators.AuditHints // what the audit knows of the class
	path     string
	toks     []string
	hyps     []hypothesis
	required []string
	declared []string
	all      [][]string // the token lists of every place the analysis names, for literal matching
}

func groups(hs []hypothesis, reg *mutators.Registry) []*group {
	var out []*group
	index := map[string]*group{}
	var all [][]string
	for _, h := range hs {
		key := string(h.Class) + "\x00" + h.Path
		g := index[key]
		if g == nil {
			toks, _ := jsonvalue.SplitPointer(h.Path)
			def, _ := reg.Lookup(h.Class)
			g = &group{class: h.Class, hints: def.Audit, path: h.Path, toks: toks}
			index[key] = g
			out = append(out, g)
			all = append(all, toks)
		}
		g.hyps = append(g.hyps, h)
		g.required = uniq.Of(append(g.required, h.required...))
		g.declared = uniq.Of(append(g.declared, h.declared...))
	}
	for _, g := range out {
		g.all = all
	}
	return out
}

// locations returns the concrete places in v that the group's path names, in a fixed order. A
// "*" stands for the keys and indices no other place of the analysis names literally there.
func (g *group) locations(v any) [][]string {
	var out [][]string
	var walk func(v any, i int, at []string)
	walk = func(v any, i int, at []string) {
		if i == len(g.toks) {
			out = append(out, append([]string(nil), at...))
			return
		}
		tok := g.toks[i]
		if tok != "*" {
			if c, ok := child(v, tok); ok {
				walk(c, i+1, append(at, tok))
			}
			return
		}
		for _, k := range childKeys(v) {
			if g.literal(i, k) {
				continue
			}
			c, _ := child(v, k)
			walk(c, i+1, append(at, k))
		}
	}
	walk(v, 0, nil)
	return out
}

// literal reports whether another place of the analysis names key k literally where the group's
// path has "*" at position i.
func (g *group) literal(i int, k string) bool {
	for _, t := range g.all {
		if len(t) > i && t[i] == k && equalToks(t[:i], g.toks[:i]) {
			return true
		}
	}
	return false
}

func equalToks(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func child(v any, tok string) (any, bool) {
	return jsonvalue.Get(v, "/"+jsonvalue.EscapeToken(tok))
}

func childKeys(v any) []string {
	switch c := v.(type) {
	case map[string]any:
		ks := make([]string, 0, len(c))
		for k := range c {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	case []any:
		ks := make([]string, len(c))
		for i := range c {
			ks[i] = fmt.Sprint(i)
		}
		return ks
	}
	return nil
}

// maxLocations bounds the concrete places tried per value and place of the analysis.
const maxLocations = 3

// judge asks the oracle about witnesses.
type judge struct {
	gk     *oracle.Gatekeeper
	lax    *oracle.Gatekeeper // the oracle with format as an annotation (nil: no formats)
	budget int64              // the bytes of argument text the oracle may validate
	left   int64              // what is left of it (below 0: spent, the audit stops)
}

func newJudge(gk *oracle.Gatekeeper, budget int64) *judge {
	if budget <= 0 {
		budget = MaxOracleBytes
	}
	j := &judge{gk: gk, budget: budget, left: budget}
	if strings.Contains(string(gk.Tool().Parameters), `"format"`) {
		j.lax = gk.Oracle().Lax() // the mutators' reading too: compiled once
	}
	return j
}

// verdict parses and validates args as a gate would receive them, and says whether the
// oracle rejects them at the place touched (path), at its parent (where a missing or extra key,
// or an alternative, is reported) or inside it: accept, reject with that issue, or neither
// (rejected for something else the change made; or only because format is asserted, which
// draft 2020-12 leaves to the validator).
func (j *judge) verdict(args []byte, path string) (v judgement, issue validator.Issue) {
	if j.left -= int64(len(args)); j.left < 0 {
		return offTarget, validator.Issue{}
	}
	_, err := j.gk.Parse(args)
	if err == nil {
		return judgedAccepted, validator.Issue{}
	}
	if j.lax != nil {
		if _, lerr := j.lax.Parse(args); lerr == nil {
			return formatOnly, validator.Issue{}
		}
	}
	issues := validator.IssuesOf(err)
	if is, ok := onTarget(issues, path); ok {
		return judgedRejected, is
	}
	// Issues reports an alternative once, where it is; Explain has every branch's issues.
	if val, perr := jsonvalue.Parse(args); perr == nil {
		if is, ok := onTarget(j.gk.Oracle().Explain(val), path); ok {
			return judgedRejected, is
		}
	}
	return offTarget, validator.Issue{}
}

type judgement int

const (
	judgedAccepted judgement = iota
	judgedRejected
	offTarget
	formatOnly
)

// onTarget returns the first issue at path, inside it or at its parent.
func onTarget(issues []validator.Issue, path string) (validator.Issue, bool) {
	parent := jsonvalue.Parent(path)
	for _, is := range issues {
		if jsonvalue.IsPrefix(path, is.Path) || (path != "" && is.Path == parent) {
			return is, true
		}
	}
	return validator.Issue{}, false
}

// decide builds the group's witnesses and returns its place.
func (j *judge) decide(g *group, samples []sample) Place {
	pl := Place{Class: g.class, Path: g.path}
	// The mutators' cases first: they are what run sends, and the oracle rejected them.
	rejected := j.mutatorWitness(g, samples)
	// Then the audit's own distortions, at places the mutators skip too (where the schema lets
	// the class through, a mutator proposes nothing).
	pr := j.probe(g, samples, rejected != nil)
	accepted := pr.accepted
	if rejected == nil {
		rejected = pr.rejected
	}
	// A class that breaks constraints (out_of_range_enum): a probe the oracle accepts only shows
	// that it broke nothing; the class passes only where nothing built there was rejected. The
	// other classes are transformations of the valid value: one that is accepted is a distortion
	// the schema lets through.
	passes := accepted != nil
	if g.hints.Breaks {
		passes = accepted != nil && pr.allAccepted && rejected == nil
	}
	switch {
	case passes:
		pl.Status, pl.Witness, pl.Rejected = Passes, accepted, rejected
		pl.Why = "the oracle accepts " + accepted.Reason
		if h, ok := g.agreeing(true); ok {
			pl.Why, pl.Unconstrained = h.Why, h.unconstrained
		}
	case rejected != nil:
		pl.Status, pl.Witness = Caught, rejected
		pl.Why = g.why(false, fmt.Sprintf("the oracle rejects %s (%s)", rejected.Reason, rejected.Issue))
	default:
		pl.Status = NotDetermined
		pl.Why = fmt.Sprintf("none of the %d valid values drawn has a value here", len(samples))
		switch {
		case pr.formats > 0:
			pl.Why = fmt.Sprintf("the %s distortions built here are invalid only where format is asserted, which "+
				"draft 2020-12 leaves to the validator", g.class)
		case pr.reached > 0:
			pl.Why = fmt.Sprintf("no %s distortion could be built here from the %d valid values drawn (none applies "+
				"to their values, or the oracle rejected it for something else)", g.class, len(samples))
		}
	}
	return pl
}

// mutatorWitness is the first case of the group's class the mutators made at the group's
// place that the oracle rejects, or nil.
func (j *judge) mutatorWitness(g *group, samples []sample) *Witness {
	for _, s := range samples {
		locs := map[string]bool{}
		for _, l := range g.locations(s.value) {
			locs[jsonvalue.Pointer(l)] = true
		}
		for _, mu := range s.muts {
			if j.left < 0 {
				return nil
			}
			if mu.Class != g.class || !locs[g.hints.Anchor.Place(mu.Path)] || !utf8.Valid(mu.Args) {
				continue
			}
			if v, is := j.verdict(mu.Args, mu.Path); v == judgedRejected {
				return &Witness{Args: string(mu.Args), Path: mu.Path, Variant: mu.Variant, Reason: mu.Reason,
					Keyword: is.Keyword, Issue: is.String(), From: "mutator"}
			}
		}
	}
	return nil
}

// probed is what the audit's own distortions at a group's place showed.
type probed struct {
	accepted, rejected *Witness // the first the oracle accepts, the first it rejects
	allAccepted        bool     // no distortion built was rejected
	reached            int      // places of the group the samples have
	formats            int      // distortions invalid only where format is asserted
}

// probe tries the audit's distortions at the group's place in each sample, until one is
// accepted and one rejected (haveRejected: the mutators gave one); out_of_range_enum tries
// them all. A sample is begun only while the distortions built at the place come to less than
// PlaceBytes (the first sample that has the place is always tried).
func (j *judge) probe(g *group, samples []sample, haveRejected bool) probed {
	pr := probed{allAccepted: true}
	var spent int64 // bytes of argument text built at this place
	for _, s := range samples {
		if spent >= PlaceBytes {
			return pr
		}
		locs := g.locations(s.value)
		pr.reached += len(locs)
		if len(locs) > maxLocations {
			locs = locs[:maxLocations]
		}
		for _, loc := range locs {
			if j.left < 0 {
				return pr
			}
			for _, p := range probes(g, s, loc) {
				spent += int64(len(p.Args))
				v, is := j.verdict(p.Args, p.Path)
				switch v {
				case formatOnly:
					pr.formats++
					continue
				case offTarget:
					continue
				}
				w := &Witness{Args: string(p.Args), Path: p.Path, Variant: p.Variant, Reason: p.Reason, From: "probe"}
				if v == judgedAccepted {
					// A required name left out and accepted was not required of this value
					// (an if/then or a branch asks for it elsewhere): no distortion at all.
					if g.hints.LeavesOut && len(g.required) > 0 {
						continue
					}
					if pr.accepted == nil {
						pr.accepted = w
					}
				} else {
					pr.allAccepted = false
					if pr.rejected == nil {
						w.Keyword, w.Issue = is.Keyword, is.String()
						pr.rejected = w
					}
				}
				if pr.accepted != nil && (haveRejected || pr.rejected != nil) && !g.hints.Breaks {
					return pr
				}
				// A required name left out is never a witness of passing (above): once one is
				// rejected, nothing further can change the place.
				if g.hints.LeavesOut && len(g.required) > 0 && (haveRejected || pr.rejected != nil) {
					return pr
				}
			}
		}
	}
	return pr
}

// agreeing is the first hypothesis that agrees with the verdict (passes or caught): the one whose
// reason the place gives.
func (g *group) agreeing(passes bool) (hypothesis, bool) {
	for _, h := range g.hyps {
		if h.Passes == passes {
			return h, true
		}
	}
	return hypothesis{}, false
}

// why is the reason of the first hypothesis that agrees with the verdict, else fallback.
func (g *group) why(passes bool, fallback string) string {
	if h, ok := g.agreeing(passes); ok {
		return h.Why
	}
	return fallback
}
