package harness

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/internal/execute"
	"github.com/toolproof/toolproof/harness/internal/rapidseam"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
)

// checkTool replays the saved cases of p, draws new ones for the scorecard (rapid's number of
// checks), then shrinks the findings.
func checkTool(p *prepared, idx int, run *runShared, opts Options, silent *execute.ToolSilence) *toolResult {
	tr := &toolResult{tool: p.tool.Name}
	r := newExecutor(opts, run.deaths, silent)
	defer r.Close()
	// 1. The regression corpus first; 2. the scorecard (one finding per class, kind and schema
	// place); 3. a minimal case for the first finding of each class and kind this tool claims.
	known, replayStats := replaySaved(p, run.saved, r, opts, tr)
	first, order := scorecard(p, r, opts, known, tr)
	for c, st := range replayStats {
		report.AddStats(tr.classes, c, st)
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
	// One shrink per class and kind, in the first tool that has it: of that tool's findings of
	// the class and kind (one per place), the first found; the others keep their first case.
	shrunk := map[string]bool{}
	for _, g := range order {
		f := first[g]
		k := shrinkKey(f.Class, f.Kind)
		if shrinkable(f) && !shrunk[k] && !opts.stopped() && run.shrink.claim(idx, f.Class, f.Kind) {
			shrunk[k] = true
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
	tr.bugs, tr.bugText, tr.unreach, tr.unbuilt = st.Bugs, st.LastBug, st.Unreachable, st.Unbuilt
	run.placer.locate(p, tr)
	return tr
}

// replaySaved sends the saved cases of p's tool that the oracle still confirms to the gate and
// keeps the first blocking finding of each class and kind (known); stale cases are noted in tr.
func replaySaved(p *prepared, saved []corpus.Case, r *execute.Executor, opts Options,
	tr *toolResult) (known map[string]bool, stats map[string]*report.ClassStats) {
	known, stats = map[string]bool{}, map[string]*report.ClassStats{}
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
		originals = append(originals, savedOriginal(c))
	}
	if len(replay) == 0 {
		return known, stats
	}
	verdicts, mutated := r.Check(p.gate, replay)
	r.Observe(verdicts)
	bases := savedBases(p, r, replay, originals, opts)
	for i := range replay {
		fs := judgeAll(&replay[i], bases[i], verdicts[i], mutated[i], opts)
		placeFindings(p, fs)
		count(statsFor(stats, replay[i].Class), &replay[i], verdicts[i], fs)
		for _, f := range fs {
			if f.Blocking && !known[f.Group()] {
				known[f.Group()] = true
				f.Detail = strings.TrimSpace(f.Detail + "\n(replayed from the regression corpus)")
				tr.findings = append(tr.findings, f)
			}
		}
	}
	return known, stats
}

// scorecard draws Options.Checks values of p's tool, each with one distortion per class (or per
// class drawn by Options.Weights), judges
// every case (nothing stops early) and counts them in tr.classes. It returns the first finding of
// each class and kind not already known, and the order they came in.
func scorecard(p *prepared, r *execute.Executor, opts Options, known map[string]bool,
	tr *toolResult) (map[string]report.Finding, []string) {
	ms := opts.mutators()
	weights := newWeighted(ms, opts.Weights, opts.WeightsFloor)
	stats := map[string]*report.ClassStats{}
	first := map[string]report.Finding{}
	var order []string
	// The classes each draw had no distortion for, counted when the draw is judged: a draw
	// left unjudged by a stop counts nothing, wherever the stop fell.
	var pendingNA [][]corpus.Class
	judge := func(cs []corpus.Case, originals []any, verdicts []validator.Verdict, mutated []bool) {
		if opts.Cases != nil {
			opts.Cases(len(cs))
		}
		for _, c := range pendingNA[0] {
			statsFor(stats, c).NotApplicable++
		}
		pendingNA[0], pendingNA = nil, pendingNA[1:]
		bases := drawBases(p, cs, originals, verdicts)
		for i := range cs {
			fs := judgeAll(&cs[i], bases[i], verdicts[i], mutated[i], opts)
			placeFindings(p, fs)
			count(statsFor(stats, cs[i].Class), &cs[i], verdicts[i], fs)
			for _, f := range fs {
				if _, seen := first[f.Group()]; !seen && !known[f.Group()] {
					first[f.Group()] = f
					order = append(order, f.Group())
				}
			}
		}
	}
	// The checks of a gate in another process stay in flight while the next are drawn; they
	// are judged in the order drawn.
	fl := r.Stream(p.gate, judge, opts.Stop)
	stop := &rapidseam.Halt{}
	prop := func(t *rapid.T) {
		if opts.stopped() {
			stop.End()
		}
		if r.Hangs() >= maxHangs {
			t.Skip("the gate hangs")
		}
		drawn := ms
		if weights != nil {
			drawn = weights.draw(t)
		}
		cs, originals, na, ok := draw(t, p, drawn)
		if !ok {
			t.Skip("the generator found no valid value in this draw")
		}
		if opts.observe != nil {
			opts.observe(p.tool.Name, cs)
		}
		pendingNA = append(pendingNA, na)
		fl.Add(cs, originals)
	}
	err := rapidseam.CheckHaltable(p.tool.Name+"/scorecard", prop, stop)
	fl.Drain()
	noteCutShort(tr, r, err)
	tr.classes = stats
	return first, order
}

// noteCutShort notes in tr what cut the scorecard short: rapid's own error, a gate that hangs,
// the cases not sent for the validator's crashes.
func noteCutShort(tr *toolResult, r *execute.Executor, err error) {
	if err != nil && err != rapidseam.ErrHalted && r.Hangs() < maxHangs {
		tr.notes = append(tr.notes, "rapid: "+err.Error())
	}
	if r.Hangs() >= maxHangs {
		tr.notes = append(tr.notes, fmt.Sprintf("stopped after the gate hung %d times", r.Hangs()))
	}
	tr.notes = append(tr.notes, r.CrashNotes()...)
}

// reconfirm checks that the oracle still agrees with a saved case's expectation (the schema
// may have changed since it was saved).
func reconfirm(p *prepared, c corpus.Case) (bool, string) {
	_, err := p.oracle.Parse(c.Args)
	switch {
	case c.Expect == corpus.Accept && err != nil:
		return false, "saved as valid, but the schema now rejects it"
	case c.Expect == corpus.Reject && err == nil:
		return false, "saved as invalid, but the schema now accepts it"
	}
	return true, ""
}

// savedOriginal is the valid value a saved case started from: its Original, or its own
// arguments when it is a valid case (nil when neither parses).
func savedOriginal(c corpus.Case) any {
	var orig any
	if len(c.Original) > 0 {
		orig, _ = jsonvalue.Parse(c.Original)
	} else if c.Expect == corpus.Accept {
		orig, _ = jsonvalue.Parse(c.Args)
	}
	return orig
}

// drawOrSkip draws a valid value and its distortions by ms; the draw is skipped when the gate
// hangs or the generator finds no valid value.
func drawOrSkip(t *rapid.T, r *execute.Executor, p *prepared, ms []mutators.Mutator) ([]corpus.Case,
	[]any, []corpus.Class) {
	if r.Hangs() >= maxHangs {
		t.Skip("the gate hangs")
	}
	cs, originals, na, ok := draw(t, p, ms)
	if !ok {
		t.Skip("the generator found no valid value in this draw")
	}
	return cs, originals, na
}

// classOnly returns the mutators of class c (none for "valid").
func classOnly(ms []mutators.Mutator, c corpus.Class) []mutators.Mutator {
	for _, m := range ms {
		if m.Class() == c {
			return []mutators.Mutator{m}
		}
	}
	return []mutators.Mutator{}
}

// draw draws one valid value and its distortions, as cases. Their ids (a hash) are computed
// only for the cases that end up in a finding or an output.
func draw(t *rapid.T, p *prepared, ms []mutators.Mutator) ([]corpus.Case, []any, []corpus.Class, bool) {
	v, ok := p.gen.Draw(t)
	if !ok {
		return nil, nil, nil, false
	}
	// The binary64 rule: a value that is valid exactly but not when its numbers are read as
	// doubles owes no verdict. Draw again (twice at most) for one that holds either way.
	expect := corpus.Accept
	tg := p.mctx.Target(v)
	for try := 0; tg.DoublesDiffer(); try++ {
		if try == 2 {
			expect = corpus.Either
			break
		}
		w, ok := p.gen.Draw(t)
		if !ok {
			expect = corpus.Either
			break
		}
		v, tg = w, p.mctx.Target(w)
	}
	hash := p.hash
	cs := make([]corpus.Case, 0, len(ms)+1)
	originals := make([]any, 0, len(ms)+1)
	cs = append(cs, corpus.Case{Tool: p.tool.Name, SchemaHash: hash, Args: tg.Text, Expect: expect,
		Class: corpus.Valid, Provenance: "generated"})
	originals = append(originals, v)
	var na []corpus.Class
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

// maxHangs is how many timeouts end the checks of one tool: each costs the whole timeout, and
// a goroutine that stays stuck in the gate.
const maxHangs = 2

// newExecutor is the Executor of one tool under opts; deaths and silent are the run's (nil: not
// recorded, not counted).
func newExecutor(opts Options, deaths *execute.Deaths, silent *execute.ToolSilence) *execute.Executor {
	return execute.New(execute.Config{Timeout: opts.timeout(), OnlyReject: opts.OnlyReject,
		Deaths: deaths, Silence: silent})
}
