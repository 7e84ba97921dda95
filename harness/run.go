package harness

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
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
	if opts.Shards > 0 {
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
	saved, err := corpus.Load(opts.CorpusDir)
	if err != nil {
		return nil, err
	}
	// Each tool is prepared by the worker that checks it and dropped after: a run over thousands
	// of tools holds only the tools in progress.
	sib := siblingsFor(tools, opts)
	rep := newReport(v.Name(), opts)
	skips := make([]*tool.Skipped, len(tools))
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	sh := newShrinkSet()
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	done, checked := 0, 0
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p, skip := prepareOne(tools[i], v, opts, sib)
				var tr *toolResult
				if p != nil {
					tr = checkTool(p, i, saved, opts, sh, nil)
				} else {
					sh.scored(i, nil)
				}
				if tr != nil && tr.noValue() {
					skip = &tool.Skipped{Tool: p.tool.Name, Source: p.tool.Source, Reason: tr.noValueReason()}
					tr = nil
				}
				mu.Lock()
				skips[i] = skip
				if tr != nil {
					rep.add(tr)
					checked++
				}
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(tools))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range tools {
		next <- i
	}
	close(next)
	wg.Wait()
	rep.Tools = checked
	rep.Seed = cfg.seed
	for _, s := range skips {
		if s != nil {
			rep.Skipped = append(rep.Skipped, *s)
		}
	}
	rep.finish()
	if opts.CorpusDir != "" {
		for _, f := range rep.Findings {
			if f.Blocking && f.Case.ID != "" {
				if _, err := corpus.Save(opts.CorpusDir, f.Case); err != nil {
					return rep, err
				}
			}
		}
	}
	return rep, nil
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
}

// noValue reports that the generator reached no valid value for the tool, so nothing was
// checked.
func (tr *toolResult) noValue() bool {
	st := tr.classes["valid"]
	return st == nil || st.Cases == 0
}

func (tr *toolResult) noValueReason() string {
	return fmt.Sprintf("the generator reached no valid value (%d draws found none): nothing could be checked", tr.unreach)
}

// logger receives progress notes (a *testing.T's Logf in go test).
type logger func(format string, args ...any)

// checkTool replays the saved cases of p, draws new ones for the scorecard (rapid's number of
// checks), then shrinks the findings.
func checkTool(p *prepared, idx int, saved []corpus.Case, opts Options, sh *shrinkSet, log logger) *toolResult {
	tr := &toolResult{tool: p.tool.Name}
	r := newRunner(opts)
	defer r.close()
	known := map[string]bool{}

	// 1. The regression corpus first.
	var replay []corpus.Case
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
		} else if c.Expect == "accept" {
			orig, _ = jsonvalue.Parse(c.Args)
		}
		originals = append(originals, orig)
	}
	replayStats := map[string]*ClassStats{}
	if len(replay) > 0 {
		verdicts, mutated := r.check(p.gate, replay)
		for i := range replay {
			fs := judgeAll(&replay[i], originals[i], verdicts[i], mutated[i], opts)
			count(replayStats, &replay[i], verdicts[i], fs)
			for _, f := range fs {
				if f.Blocking && !known[f.group()] {
					known[f.group()] = true
					f.Detail = strings.TrimSpace(f.Detail + "\n(replayed from the regression corpus)")
					tr.findings = append(tr.findings, f)
				}
			}
		}
	}

	// 2. The scorecard: every draw judged, the first case of every tool, class and kind kept.
	ms := opts.mutators()
	stats := map[string]*ClassStats{}
	first := map[string]Finding{}
	var order []string
	scorecard := func(t *rapid.T) {
		if r.hung >= maxHangs {
			t.Skip("the gate hangs")
		}
		cases, originals, na, ok := draw(t, p, ms)
		if !ok {
			t.Skip("the generator found no valid value in this draw")
		}
		for _, c := range na {
			statsFor(stats, string(c)).NotApplicable++
		}
		verdicts, mutated := r.check(p.gate, cases)
		for i := range cases {
			fs := judgeAll(&cases[i], originals[i], verdicts[i], mutated[i], opts)
			count(stats, &cases[i], verdicts[i], fs)
			for _, f := range fs {
				if _, seen := first[f.group()]; !seen && !known[f.group()] {
					first[f.group()] = f
					order = append(order, f.group())
				}
			}
		}
	}
	if err := runCheck(p.tool.Name+"/scorecard", scorecard); err != nil && r.hung < maxHangs {
		tr.notes = append(tr.notes, "rapid: "+err.Error())
	}
	if r.hung >= maxHangs {
		tr.notes = append(tr.notes, fmt.Sprintf("stopped after the gate hung %d times", r.hung))
	}
	for c, st := range replayStats {
		statsFor(stats, c).merge(st)
	}
	tr.classes = stats
	groups := map[string]bool{}
	for _, g := range order {
		if f := first[g]; f.Blocking && f.Kind != Timeout {
			groups[shrinkKey(f.Class, f.Kind)] = true
		}
	}
	sh.scored(idx, groups)

	// 3. Shrink: one minimal case per class and kind for the whole run (sh decides), the first
	// case seen for the others. Shrinking draws again until the same tool, class and kind
	// fails, and lets rapid minimise it.
	for _, g := range order {
		f := first[g]
		// A hang is not shrunk: every try would cost the timeout.
		if f.Blocking && f.Kind != Timeout && sh.claim(idx, f.Class, f.Kind) {
			var last *Finding
			only := classOnly(ms, f.Class)
			prop := func(t *rapid.T) {
				if r.hung >= maxHangs {
					t.Skip("the gate hangs")
				}
				cases, originals, _, ok := draw(t, p, only)
				if !ok {
					t.Skip("the generator found no valid value in this draw")
				}
				verdicts, mutated := r.check(p.gate, cases)
				for i := range cases {
					for _, h := range judgeAll(&cases[i], originals[i], verdicts[i], mutated[i], opts) {
						if h.group() == g {
							h := h
							last = &h
							fail(t, h)
						}
					}
				}
			}
			// Named after the group, so that rapid's fail file (in go test) is replayed only by
			// the shrink of the same tool, class and kind.
			if runCheck(p.tool.Name+"/"+f.Class+"/"+string(f.Kind), prop) != nil && last != nil {
				f = *last
				f.Shrunk = true
			}
		}
		tr.findings = append(tr.findings, f)
		if log != nil {
			log("finding: %s", f.String())
		}
	}
	// Counts of each finding's group, from the final pass.
	for i := range tr.findings {
		f := &tr.findings[i]
		if st := tr.classes[f.Class]; st != nil {
			f.Count = st.ByKind[f.Kind]
		}
	}
	st := p.gen.Stats()
	tr.bugs, tr.bugText, tr.unreach = st.Bugs, st.LastBug, st.Unreachable
	return tr
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
func reconfirm(p *prepared, c corpus.Case) (bool, string) {
	_, err := p.oracle.Parse(c.Args)
	switch {
	case c.Expect == "accept" && err != nil:
		return false, "saved as valid, but the schema now rejects it"
	case c.Expect == "reject" && err == nil:
		return false, "saved as invalid, but the schema now accepts it"
	}
	return true, ""
}

// judgeAll is judge plus the mutated-input check.
func judgeAll(c *corpus.Case, original any, v validator.Verdict, mutated bool, opts Options) []Finding {
	fs := judge(c, original, v, opts.profile(), opts.RequireLocation)
	if mutated {
		if c.ID == "" {
			*c = c.Seal()
		}
		fs = append(fs, Finding{Tool: c.Tool, Class: c.Class, Variant: c.Variant, Kind: MutatedInput,
			Expect: c.Expect, Got: "changed its input", Path: c.Path, Reason: c.Reason, Args: string(c.Args),
			ID: c.ID, Detail: "the gate wrote into the argument bytes it was given", Blocking: true, Case: *c})
	}
	return fs
}

// maxHangs is how many timeouts end the checks of one tool: each costs the whole timeout, and
// a goroutine that stays stuck in the gate.
const maxHangs = 2

// classOnly returns the mutators of class c (none for "valid").
func classOnly(ms []mutators.Mutator, c string) []mutators.Mutator {
	for _, m := range ms {
		if string(m.Class()) == c {
			return []mutators.Mutator{m}
		}
	}
	return []mutators.Mutator{}
}

// draw draws one valid value and its distortions, as cases. Their ids (a hash) are computed
// only for the cases that end up in a finding or an output.
func draw(t *rapid.T, p *prepared, ms []mutators.Mutator) ([]corpus.Case, []any, []mutators.Class, bool) {
	v, ok := p.gen.Draw(t)
	if !ok {
		return nil, nil, nil, false
	}
	// The binary64 rule: a value that is valid exactly but not when its numbers are read as
	// doubles owes no verdict. Draw again (twice at most) for one that holds either way.
	expect := "accept"
	for try := 0; p.mctx.DoublesDiffer(v, true); try++ {
		if try == 2 {
			expect = "either"
			break
		}
		w, ok := p.gen.Draw(t)
		if !ok {
			expect = "either"
			break
		}
		v = w
	}
	tg := p.mctx.Target(v)
	hash := p.hash
	cases := make([]corpus.Case, 0, len(ms)+1)
	originals := make([]any, 0, len(ms)+1)
	cases = append(cases, corpus.Case{Tool: p.tool.Name, SchemaHash: hash, Args: tg.Text, Expect: expect,
		Class: "valid", Provenance: "generated"})
	originals = append(originals, v)
	var na []mutators.Class
	for _, m := range ms {
		mu, ok := m.Mutate(t, tg)
		if !ok {
			na = append(na, m.Class())
			continue
		}
		cases = append(cases, caseOf(p.tool, hash, mu, tg.Text))
		originals = append(originals, v)
	}
	return cases, originals, na, true
}

func caseOf(t tool.Tool, hash string, m mutators.Mutation, original []byte) corpus.Case {
	return corpus.Case{Tool: t.Name, SchemaHash: hash, Args: m.Args, Expect: string(m.Expect),
		Class: string(m.Class), Variant: m.Variant, Path: m.Path, Keyword: m.Keyword, Reason: m.Reason,
		Canary: m.Canary, Original: original, Provenance: "generated"}
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

func shrinkKey(class string, kind Kind) string { return class + "\x00" + string(kind) }

// scored records what tool i's scorecard found (nil: nothing, or the tool was skipped).
func (s *shrinkSet) scored(i int, groups map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
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
func (s *shrinkSet) claim(i int, class string, kind Kind) bool {
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
}

// maxSamples is how many unclear answers a class keeps as samples.
const maxSamples = 3

func statsFor(m map[string]*ClassStats, class string) *ClassStats {
	st := m[class]
	if st == nil {
		st = &ClassStats{ByKind: map[Kind]int{}}
		m[class] = st
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
	for _, x := range o.Samples {
		if len(s.Samples) < maxSamples {
			s.Samples = append(s.Samples, x)
		}
	}
	for k, n := range o.ByKind {
		s.ByKind[k] += n
	}
}

func count(m map[string]*ClassStats, c *corpus.Case, v validator.Verdict, fs []Finding) {
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
			st.Samples = append(st.Samples, fmt.Sprintf("%s %s: %s", c.Tool, truncate(string(c.Args), 120), truncate(v.Detail, 200)))
		}
	case c.Expect == "either":
		st.Either++
		if v.Valid {
			st.EitherAccepted++
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
