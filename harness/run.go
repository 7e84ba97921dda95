package harness

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// Run checks every tool against v and returns the report. It needs no *testing.T and writes no
// file unless Options.CorpusDir names a directory.
func Run(tools []tool.Tool, v validator.Validator, opts Options) (*Report, error) {
	if opts.CorpusDir == "-" {
		opts.CorpusDir = ""
	}
	cfg := seam.resolve(opts, true)
	release := seam.acquire(cfg)
	defer release()
	var all []tool.Tool // the whole list, when this is a shard of it
	if opts.Shards > 0 {
		all = tools
		if opts.Shard < 0 || opts.Shard >= opts.Shards {
			return nil, fmt.Errorf("shard %d/%d: want 0 <= shard < shards", opts.Shard, opts.Shards)
		}
		var mine []tool.Tool
		for i, t := range tools {
			if i%opts.Shards == opts.Shard {
				mine = append(mine, t)
			}
		}
		if opts.Siblings == nil {
			opts.Siblings = tools
		}
		tools = mine
	}
	saved, err := cases.Load(opts.CorpusDir)
	if err != nil {
		return nil, err
	}
	rep := newReport(v.Name(), opts)
	rep.Shard = newShardInfo(opts, all)
	skips := make([]*tool.Skipped, len(tools))
	shared := newRunShared(saved)
	done, checked := 0, 0
	pipeline(tools, v, opts, shared, func(i int, tr *toolResult, skip *tool.Skipped) {
		skips[i] = skip
		if tr != nil {
			rep.add(tr)
			rep.Shard.addShrinks(i, tr.firsts)
			checked++
		}
		done++
		if opts.Progress != nil {
			opts.Progress(done, len(tools))
		}
	})
	rep.Tools = checked
	rep.Seed = cfg.seed
	rep.Notes = append(rep.Notes, shared.notes()...)
	for i, s := range skips {
		if s != nil {
			rep.Skipped = append(rep.Skipped, *s)
			rep.Shard.skipped(i)
		}
	}
	rep.finish()
	rep.Shard.finish(rep)
	if opts.CorpusDir != "" {
		for _, f := range rep.Findings {
			if f.Blocking && f.Case.ID != "" {
				if _, err := cases.Save(opts.CorpusDir, f.Case); err != nil {
					return rep, err
				}
			}
		}
	}
	return rep, nil
}

// pipeline is the one way tools are checked, by Run and Check alike: opts.Jobs workers (0:
// GOMAXPROCS) each prepare a tool, check it and drop it, so a run over thousands of tools holds
// only the tools in progress. done gets each tool's result (nil when skipped, with the reason),
// one call at a time, in the order the tools finish.
func pipeline(tools []tool.Tool, v validator.Validator, opts Options, shared *runShared, done func(i int, tr *toolResult, skip *tool.Skipped)) {
	sib := siblingsFor(tools, opts)
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	// one checks tool i. A gate that ends its goroutine (t.Fatal from a Go gate calls
	// runtime.Goexit) must not leave the others waiting for this tool: the tool is recorded as
	// skipped, marked scored, and another worker takes this one's place.
	var worker func()
	one := func(i int) {
		finished := false
		defer func() {
			if finished {
				return
			}
			shared.shrink.scored(i, nil)
			mu.Lock()
			defer mu.Unlock()
			done(i, nil, &tool.Skipped{Tool: tools[i].Name, Source: tools[i].Source,
				Reason: "the check of this tool stopped: the gate ended its goroutine (runtime.Goexit, as t.Fatal does) or panicked"})
			wg.Add(1)
			go worker()
		}()
		p, skip := prepareOne(tools[i], v, opts, sib)
		var tr *toolResult
		if p != nil {
			tr = checkTool(p, i, shared, opts)
		} else {
			shared.shrink.scored(i, nil)
		}
		if tr != nil && tr.noValue() {
			skip = &tool.Skipped{Tool: p.tool.Name, Source: p.tool.Source, Reason: tr.noValueReason()}
			tr = nil
		}
		finished = true
		mu.Lock()
		defer mu.Unlock()
		done(i, tr, skip)
	}
	worker = func() {
		defer wg.Done()
		for i := range next {
			one(i)
		}
	}
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go worker()
	}
	for i := range tools {
		next <- i
	}
	close(next)
	wg.Wait()
}

// runShared is what the tools of one run share: the saved cases, who shrinks what, and the
// process deaths of an external validator.
type runShared struct {
	saved  []cases.Case
	shrink *shrinkSet
	deaths *deathLog
}

func newRunShared(saved []cases.Case) *runShared {
	return &runShared{saved: saved, shrink: newShrinkSet(), deaths: &deathLog{}}
}

// notes are the run-level notes: process deaths that no call reproduced.
func (s *runShared) notes() []string {
	n, sample := s.deaths.unreproduced()
	if n == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the validator's process died %d times with calls in flight, none of which crashed it again when run alone (not counted as findings); one of them: %s", n, sample)}
}

// toolResult is what checking one tool found.
type toolResult struct {
	tool     string
	classes  map[string]*ClassStats
	findings []Finding
	bugs     int64  // generator values the oracle rejected
	bugText  string // the last of them
	unreach  int64
	stale    []string // saved cases whose expectation the oracle no longer confirms
	notes    []string
	firsts   []Finding // the first case of each finding this tool shrank, as it was before
}

// noValue reports that the generator reached no valid value for the tool, so nothing was
// checked. Valid cases kept back (Options.OnlyReject, a gate that could not be given them) count
// as reached.
func (tr *toolResult) noValue() bool {
	st := tr.classes[string(cases.Valid)]
	return st == nil || st.Cases+st.NotApplicable == 0
}

func (tr *toolResult) noValueReason() string {
	return fmt.Sprintf("the generator reached no valid value (%d draws found none): nothing could be checked", tr.unreach)
}

// checkTool replays the saved cases of p, draws new ones for the scorecard (rapid's number of
// checks), then shrinks the findings.
func checkTool(p *prepared, idx int, run *runShared, opts Options) *toolResult {
	tr := &toolResult{tool: p.tool.Name}
	r := newRunner(opts, run.deaths)
	defer r.close()
	// 1. The regression corpus first; 2. the scorecard; 3. one minimal case per finding.
	known, replayStats := replaySaved(p, run.saved, r, opts, tr)
	first, order := scorecard(p, r, opts, known, tr)
	for c, st := range replayStats {
		statsFor(tr.classes, cases.Class(c)).merge(st)
	}
	groups := map[string]bool{}
	for _, g := range order {
		if f := first[g]; shrinkable(f) {
			groups[shrinkKey(f.Class, f.Kind)] = true
		}
	}
	run.shrink.scored(idx, groups)
	// The generator's counts are the scorecard's: how many findings a tool shrinks depends on
	// the tools before it (and on the shard), its report line must not.
	st := p.gen.Stats()
	for _, g := range order {
		f := first[g]
		if shrinkable(f) && run.shrink.claim(idx, f.Class, f.Kind) {
			tr.firsts = append(tr.firsts, f)
			f = minimal(p, r, opts, f)
		}
		tr.findings = append(tr.findings, f)
	}
	// Counts of each finding's group, from the final pass.
	for i := range tr.findings {
		f := &tr.findings[i]
		if st := tr.classes[string(f.Class)]; st != nil {
			f.Count = st.ByKind[f.Kind]
		}
	}
	tr.bugs, tr.bugText, tr.unreach = st.Bugs, st.LastBug, st.Unreachable
	return tr
}

// replaySaved sends the saved cases of p's tool that the oracle still confirms to the gate and
// keeps the first blocking finding of each class and kind (known); stale cases are noted in tr.
func replaySaved(p *prepared, saved []cases.Case, r *runner, opts Options, tr *toolResult) (known map[string]bool, stats map[string]*ClassStats) {
	known, stats = map[string]bool{}, map[string]*ClassStats{}
	var replay []cases.Case
	var originals []any
	for _, c := range saved {
		if c.Tool != p.tool.Name {
			continue
		}
		if ok, why := reconfirm(p, c); !ok {
			tr.stale = append(tr.stale, fmt.Sprintf("%s: %s", c.ID, why))
			continue
		}
		replay = append(replay, c)
		var orig any
		if len(c.Original) > 0 {
			orig, _ = jsonvalue.Parse(c.Original)
		} else if c.Expect == cases.Accept {
			orig, _ = jsonvalue.Parse(c.Args)
		}
		originals = append(originals, orig)
	}
	if len(replay) == 0 {
		return known, stats
	}
	verdicts, mutated := r.check(p.gate, replay)
	for i := range replay {
		fs := judgeAll(&replay[i], originals[i], verdicts[i], mutated[i], opts)
		count(stats, &replay[i], verdicts[i], fs)
		for _, f := range fs {
			if f.Blocking && !known[f.group()] {
				known[f.group()] = true
				f.Detail = strings.TrimSpace(f.Detail + "\n(replayed from the regression corpus)")
				tr.findings = append(tr.findings, f)
			}
		}
	}
	return known, stats
}

// scorecard draws Options.Checks values of p's tool, each with one distortion per class, judges
// every case (nothing stops early) and counts them in tr.classes. It returns the first finding of
// each class and kind not already known, and the order they came in.
func scorecard(p *prepared, r *runner, opts Options, known map[string]bool, tr *toolResult) (map[string]Finding, []string) {
	ms := opts.mutators()
	stats := map[string]*ClassStats{}
	first := map[string]Finding{}
	var order []string
	prop := func(t *rapid.T) {
		if r.hung >= maxHangs {
			t.Skip("the gate hangs")
		}
		cs, originals, na, ok := draw(t, p, ms)
		if !ok {
			t.Skip("the generator found no valid value in this draw")
		}
		for _, c := range na {
			statsFor(stats, c).NotApplicable++
		}
		if opts.observe != nil {
			opts.observe(p.tool.Name, cs)
		}
		verdicts, mutated := r.check(p.gate, cs)
		for i := range cs {
			fs := judgeAll(&cs[i], originals[i], verdicts[i], mutated[i], opts)
			count(stats, &cs[i], verdicts[i], fs)
			for _, f := range fs {
				if _, seen := first[f.group()]; !seen && !known[f.group()] {
					first[f.group()] = f
					order = append(order, f.group())
				}
			}
		}
	}
	if err := runCheck(p.tool.Name+"/scorecard", prop); err != nil && r.hung < maxHangs {
		tr.notes = append(tr.notes, "rapid: "+err.Error())
	}
	if r.hung >= maxHangs {
		tr.notes = append(tr.notes, fmt.Sprintf("stopped after the gate hung %d times", r.hung))
	}
	tr.classes = stats
	return first, order
}

// shrinkable reports whether f is worth a minimal case. A hang is not shrunk: every try would
// cost the timeout; nor a crash: every try would cost a restart of the validator (the case kept
// has crashed it twice, once alone).
func shrinkable(f Finding) bool { return f.Blocking && f.Kind != Timeout && f.Kind != Crash }

// minimal draws again, only f's class, until a case of the same class and kind fails, and lets
// rapid minimise it; f itself when no draw fails again.
func minimal(p *prepared, r *runner, opts Options, f Finding) Finding {
	g := f.group()
	var last *Finding
	only := classOnly(opts.mutators(), f.Class)
	steps := newShrinkSteps(opts.shrinkSteps())
	prop := func(t *rapid.T) {
		steps.next()
		if r.hung >= maxHangs {
			t.Skip("the gate hangs")
		}
		cs, originals, _, ok := draw(t, p, only)
		if !ok {
			t.Skip("the generator found no valid value in this draw")
		}
		verdicts, mutated := r.check(p.gate, cs)
		for i := range cs {
			for _, h := range judgeAll(&cs[i], originals[i], verdicts[i], mutated[i], opts) {
				if h.group() == g {
					h := h
					last = &h
					steps.failed()
					fail(t, h)
				}
			}
		}
	}
	// Named after the group, so that rapid's fail file (in go test) is replayed only by the
	// shrink of the same tool, class and kind.
	if runShrink(p.tool.Name+"/"+string(f.Class)+"/"+string(f.Kind), prop, steps) != nil && last != nil {
		f = *last
		f.Shrunk = true
	}
	return f
}

// fail stops the property at a line of its own for each kind: rapid shrinks a failure only to
// smaller cases that fail at the same place, so a shrunk case keeps its kind.
func fail(t *rapid.T, f Finding) {
	switch f.Kind {
	case FalseReject:
		t.Fatalf("%s", f.String())
	case Missed:
		t.Fatalf("%s", f.String())
	case WrongRepair:
		t.Fatalf("%s", f.String())
	case SilentChange:
		t.Fatalf("%s", f.String())
	case ImpreciseLocation:
		t.Fatalf("%s", f.String())
	case Leak:
		t.Fatalf("%s", f.String())
	case MutatedInput:
		t.Fatalf("%s", f.String())
	case Crash:
		t.Fatalf("%s", f.String())
	case Timeout:
		t.Fatalf("%s", f.String())
	default:
		t.Fatalf("%s", f.String())
	}
}

// reconfirm checks that the oracle still agrees with a saved case's expectation (the schema
// may have changed since it was saved).
func reconfirm(p *prepared, c cases.Case) (bool, string) {
	_, err := p.oracle.Parse(c.Args)
	switch {
	case c.Expect == cases.Accept && err != nil:
		return false, "saved as valid, but the schema now rejects it"
	case c.Expect == cases.Reject && err == nil:
		return false, "saved as invalid, but the schema now accepts it"
	}
	return true, ""
}

// judgeAll is judge plus the mutated-input check.
func judgeAll(c *cases.Case, original any, v validator.Verdict, mutated bool, opts Options) []Finding {
	fs := judge(c, original, v, opts.profile(), opts.RequireLocation)
	if mutated {
		if c.ID == "" {
			*c = c.Seal()
		}
		fs = append(fs, Finding{Case: *c, Kind: MutatedInput, Got: "changed its input",
			Detail: "the gate wrote into the argument bytes it was given", Blocking: true})
	}
	return fs
}

// maxHangs is how many timeouts end the checks of one tool: each costs the whole timeout, and
// a goroutine that stays stuck in the gate.
const maxHangs = 2

// classOnly returns the mutators of class c (none for "valid").
func classOnly(ms []mutators.Mutator, c cases.Class) []mutators.Mutator {
	for _, m := range ms {
		if m.Class() == c {
			return []mutators.Mutator{m}
		}
	}
	return []mutators.Mutator{}
}

// draw draws one valid value and its distortions, as cases. Their ids (a hash) are computed
// only for the cases that end up in a finding or an output.
func draw(t *rapid.T, p *prepared, ms []mutators.Mutator) ([]cases.Case, []any, []cases.Class, bool) {
	v, ok := p.gen.Draw(t)
	if !ok {
		return nil, nil, nil, false
	}
	// The binary64 rule: a value that is valid exactly but not when its numbers are read as
	// doubles owes no verdict. Draw again (twice at most) for one that holds either way.
	expect := cases.Accept
	tg := p.mctx.Target(v)
	for try := 0; tg.DoublesDiffer(); try++ {
		if try == 2 {
			expect = cases.Either
			break
		}
		w, ok := p.gen.Draw(t)
		if !ok {
			expect = cases.Either
			break
		}
		v, tg = w, p.mctx.Target(w)
	}
	hash := p.hash
	cs := make([]cases.Case, 0, len(ms)+1)
	originals := make([]any, 0, len(ms)+1)
	cs = append(cs, cases.Case{Tool: p.tool.Name, SchemaHash: hash, Args: tg.Text, Expect: expect,
		Class: cases.Valid, Provenance: "generated"})
	originals = append(originals, v)
	var na []cases.Class
	for _, m := range ms {
		mu, ok := m.Mutate(t, tg)
		if !ok {
			na = append(na, m.Class())
			continue
		}
		// The mutation is the case; it gets its tool and where it came from here.
		mu.Tool, mu.SchemaHash, mu.Original, mu.Provenance = p.tool.Name, hash, tg.Text, "generated"
		cs = append(cs, mu)
		originals = append(originals, v)
	}
	return cs, originals, na, true
}

// ---- running rapid.Check without *testing.T

// errFailNow stops rapid.Check when the property failed; runCheck recovers it.
var errFailNow = errors.New("toolproof: check failed")

// checkTB is the rapid.TB that runs a property outside go test: it records failures instead
// of ending a test.
type checkTB struct {
	name   string
	mu     sync.Mutex
	failed bool
	msgs   []string
}

func (c *checkTB) Helper()                   {}
func (c *checkTB) Name() string              { return "toolproof/" + c.name }
func (c *checkTB) Logf(string, ...any)       {}
func (c *checkTB) Log(...any)                {}
func (c *checkTB) Skipf(f string, a ...any)  { panic(errFailNow) }
func (c *checkTB) Skip(...any)               { panic(errFailNow) }
func (c *checkTB) SkipNow()                  { panic(errFailNow) }
func (c *checkTB) Errorf(f string, a ...any) { c.fail(fmt.Sprintf(f, a...)) }
func (c *checkTB) Error(a ...any)            { c.fail(fmt.Sprint(a...)) }
func (c *checkTB) Fatalf(f string, a ...any) { c.fail(fmt.Sprintf(f, a...)); panic(errFailNow) }
func (c *checkTB) Fatal(a ...any)            { c.fail(fmt.Sprint(a...)); panic(errFailNow) }
func (c *checkTB) FailNow()                  { c.fail(""); panic(errFailNow) }
func (c *checkTB) Fail()                     { c.fail("") }
func (c *checkTB) Failed() bool              { c.mu.Lock(); defer c.mu.Unlock(); return c.failed }

func (c *checkTB) fail(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failed = true
	if msg != "" {
		c.msgs = append(c.msgs, msg)
	}
}

// runCheck runs rapid.Check on prop and returns nil when it passed, else what rapid said.
func runCheck(name string, prop func(*rapid.T)) (err error) {
	tb := &checkTB{name: name}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				panic(r)
			}
		}()
		rapid.Check(tb, prop)
	}()
	if !tb.Failed() {
		return nil
	}
	msg := strings.Join(tb.msgs, "\n")
	if i := strings.Index(msg, "\n"); i > 0 {
		msg = msg[:i]
	}
	return errors.New(msg)
}

// shrinkSet decides which tool shrinks a case for each class and kind: shrinking costs many
// draws, and one minimal case per class and kind shows the bug. The first tool in the given
// order that finds a class and kind shrinks it, whatever order the workers finish in, so the
// same seed gives the same minimal cases for any number of jobs.
type shrinkSet struct {
	mu       sync.Mutex
	cond     *sync.Cond
	found    map[int]map[string]bool // tool index: the class and kind groups its scorecard found
	frontier int                     // every tool below this index has been scored
}

func newShrinkSet() *shrinkSet {
	s := &shrinkSet{found: map[int]map[string]bool{}}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func shrinkKey(class cases.Class, kind Kind) string { return string(class) + "\x00" + string(kind) }

// scored records what tool i's scorecard found (nil: nothing, or the tool was skipped).
func (s *shrinkSet) scored(i int, groups map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, seen := s.found[i]; seen {
		return // once per tool (a tool whose check stopped is marked again on its way out)
	}
	if groups == nil {
		groups = map[string]bool{}
	}
	s.found[i] = groups
	for s.found[s.frontier] != nil {
		s.frontier++
	}
	s.cond.Broadcast()
}

// claim reports whether tool i shrinks class and kind: no tool before it found them. It waits
// until every tool before i has been scored.
func (s *shrinkSet) claim(i int, class cases.Class, kind Kind) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.frontier < i {
		s.cond.Wait()
	}
	k := shrinkKey(class, kind)
	for j := 0; j < i; j++ {
		if s.found[j][k] {
			return false
		}
	}
	return true
}

// ---- counting

// ClassStats counts the cases of one class.
type ClassStats struct {
	Cases         int          `json:"cases"`
	Failed        int          `json:"failed"`         // cases with a blocking finding
	NotApplicable int          `json:"not_applicable"` // draws where the class applied nowhere
	ByKind        map[Kind]int `json:"by_kind,omitempty"`
	// Either counts the cases whose verdict is implementation-defined (expectation either: the
	// binary64 rule, duplicate keys, ...), never failed; EitherAccepted of them were accepted.
	Either         int `json:"either,omitempty"`
	EitherAccepted int `json:"either_accepted,omitempty"`
	// Unclear counts the answers that were neither a rejection nor a call gone through
	// (validator.Verdict.Unclear); never failed. Samples keeps a few of them.
	Unclear int      `json:"unclear,omitempty"`
	Samples []string `json:"unclear_samples,omitempty"`
	// Rejected counts the must-reject cases rejected; Located those of them with an issue where
	// the change is (at its place, inside it, or above it as far as the schema lets a gate know).
	Rejected int `json:"rejected,omitempty"`
	Located  int `json:"located,omitempty"`
}

// maxSamples is how many unclear answers a class keeps as samples.
const maxSamples = 3

func statsFor(m map[string]*ClassStats, class cases.Class) *ClassStats {
	st := m[string(class)]
	if st == nil {
		st = &ClassStats{ByKind: map[Kind]int{}}
		m[string(class)] = st
	}
	return st
}

func (s *ClassStats) merge(o *ClassStats) {
	s.Cases += o.Cases
	s.Failed += o.Failed
	s.NotApplicable += o.NotApplicable
	s.Either += o.Either
	s.EitherAccepted += o.EitherAccepted
	s.Unclear += o.Unclear
	s.Rejected += o.Rejected
	s.Located += o.Located
	// The first samples in text order, whatever order the tools finish in (or the shards merge).
	s.Samples = append(s.Samples, o.Samples...)
	sort.Strings(s.Samples)
	if len(s.Samples) > maxSamples {
		s.Samples = s.Samples[:maxSamples]
	}
	for k, n := range o.ByKind {
		s.ByKind[k] += n
	}
}

func count(m map[string]*ClassStats, c *cases.Case, v validator.Verdict, fs []Finding) {
	st := statsFor(m, c.Class)
	if v.NotSent {
		st.NotApplicable++
		return
	}
	st.Cases++
	switch {
	case v.Fault != "":
	case v.Unclear:
		st.Unclear++
		if len(st.Samples) < maxSamples {
			// Valid UTF-8, so that the JSON report (and a merge of shards) holds the sample as shown.
			st.Samples = append(st.Samples, strings.ToValidUTF8(fmt.Sprintf("%s %s: %s", c.Tool, truncate(string(c.Args), 120), truncate(v.Detail, 200)), "\uFFFD"))
		}
	case c.Expect == cases.Either:
		st.Either++
		if v.Valid {
			st.EitherAccepted++
		}
	case c.Expect == cases.Reject && !v.Valid:
		// judge has located it already: an imprecise_location finding says it did not.
		st.Rejected++
		located := true
		for _, f := range fs {
			located = located && f.Kind != ImpreciseLocation
		}
		if located {
			st.Located++
		}
	}
	blocking := false
	for _, f := range fs {
		st.ByKind[f.Kind]++
		blocking = blocking || f.Blocking
	}
	if blocking {
		st.Failed++
	}
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		if a.Class != b.Class {
			return a.Class < b.Class
		}
		return a.Kind < b.Kind
	})
}
