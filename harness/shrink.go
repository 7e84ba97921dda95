package harness

import (
	"sync"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/internal/execute"
	"github.com/toolproof/toolproof/harness/internal/rapidseam"
	"github.com/toolproof/toolproof/harness/report"
)

// Shrinking is bounded by steps, never by time: rapid stops minimising after its
// -rapid.shrinktime, so how small a case gets would depend on how busy the machine is. The
// harness gives rapid all the time there is (rapidseam.ShrinkTime) and counts the draws it
// sends to the gate instead; once they are spent, rapid is stopped where it is
// (rapidseam.Halt) and the last case that failed is the minimal one, so the same seed gives
// the same minimal case on any machine, under any load.

// DefaultShrinkSteps is how many draws minimising one finding may send to the gate when
// Options.ShrinkSteps is 0.
const DefaultShrinkSteps = 1000

func (o Options) shrinkSteps() int {
	if o.ShrinkSteps > 0 {
		return o.ShrinkSteps
	}
	return DefaultShrinkSteps
}

// shrinkSteps counts the runs of a property that minimises one finding. The runs before the
// first failure (rapid looking for it again) are free; after it, each run spends a step,
// except the one rapid makes to confirm a failure it has just seen (it runs every failing
// case twice, and a case that failed once and then did not would be flaky to rapid).
type shrinkSteps struct {
	rapidseam.Halt
	left       int
	started    bool // the property has failed: rapid is minimising
	confirm    bool // the next run confirms the failure just seen
	confirming bool // the run under way is such a confirmation
}

func newShrinkSteps(n int) *shrinkSteps { return &shrinkSteps{left: n} }

// next lets the property run once more, or ends the shrink (Halt.End) when the steps are
// spent or the run is stopped.
func (s *shrinkSteps) next(stopped bool) {
	s.confirming, s.confirm = s.confirm, false
	switch {
	case stopped:
		s.End()
	case s.confirming || !s.started:
		return
	case s.left <= 0:
		s.End()
	}
	s.left--
}

// failed records that the run under way failed.
func (s *shrinkSteps) failed() {
	if !s.confirming {
		s.started, s.confirm = true, true
	}
}

// shrinkable reports whether f is worth a minimal case. A hang is not shrunk: every try would
// cost the timeout; nor a crash: every try would cost a restart of the validator (the case kept
// has crashed it twice, once alone).
func shrinkable(f report.Finding) bool {
	return f.Blocking && f.Kind != report.Timeout && f.Kind != report.Crash
}

// minimal draws again, only f's class, until a case of the same class and kind fails, and lets
// rapid minimise it; f itself when no draw fails again.
func minimal(p *prepared, r *execute.Executor, opts Options, f report.Finding) report.Finding {
	g := f.Group()
	var last *report.Finding
	only := classOnly(opts.mutators(), f.Class)
	steps := newShrinkSteps(opts.shrinkSteps())
	prop := func(t *rapid.T) {
		steps.next(opts.stopped())
		cs, originals, _ := drawOrSkip(t, r, p, only)
		verdicts, mutated := r.Check(p.gate, cs)
		r.Observe(verdicts) // a stop ends the shrink at the next draw
		bases := drawBases(p, cs, originals, verdicts)
		for i := range cs {
			fs := judgeAll(&cs[i], bases[i], verdicts[i], mutated[i], opts)
			placeFindings(p, fs)
			for _, h := range fs {
				if h.Group() == g {
					h := h
					last = &h
					steps.failed()
					// Only this group fails, always at this line: rapid shrinks a failure only
					// to smaller cases that fail at the same place, so the shrunk case keeps
					// the class and kind.
					t.Fatalf("%s", h.String())
				}
			}
		}
	}
	// Named after the group, so that rapid's fail file (in go test) is replayed only by the
	// shrink of the same tool, class and kind.
	if rapidseam.CheckHaltable(p.tool.Name+"/"+string(f.Class)+"/"+string(f.Kind), prop, &steps.Halt) != nil &&
		last != nil {
		f = *last
		f.Shrunk = true
	}
	return f
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

func shrinkKey(class corpus.Class, kind report.Kind) string {
	return string(class) + "\x00" + string(kind)
}

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
func (s *shrinkSet) claim(i int, class corpus.Class, kind report.Kind) bool {
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
