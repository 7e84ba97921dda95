package execute

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolproof/toolproof/validator"
)

// A validator that stops answering ends the run at a point the seed decides, not the clock, so
// that one that hangs on the same calls every time gives the same report whatever the timing
// and --jobs:
//   - the calls of a tool are counted in the order they were drawn (the order its checks are
//     judged in), not the order their timeouts fire; a tool stops right after the check whose
//     call is the limit-th timeout in a row (NewSilence): the checks after it, in flight or
//     not, are not judged;
//   - the run keeps the tools up to the first one, in the given order, that stopped so: a tool
//     after it is stopped and left out of the report even when it was checked meanwhile (with
//     several jobs), and a tool before it is checked to its end (or to its own stop, which then
//     moves the cut earlier).
// A validator that hangs at random (a call that gets a verdict one time and not another) gives
// no such guarantee: where its silences fall depends on the timing.

// Silence is the run's cut-off for a validator that stops answering: the first tool, in the
// given order, on which it did, and the tools under way, which a stop before them ends.
type Silence struct {
	limit   int // timeouts in a row that stop a tool
	mu      sync.Mutex
	cut     int   // index of the first tool that stopped on silence; -1: none yet
	why     error // what its stop said
	running map[int]context.CancelCauseFunc
	tripped chan struct{} // closed at the first stop: no more tools are begun
}

// NewSilence is the cut-off of a run that has not begun, where limit calls of one tool in a
// row, in the order drawn, that end in a timeout stop it.
func NewSilence(limit int) *Silence {
	return &Silence{limit: limit, cut: -1, running: map[int]context.CancelCauseFunc{}, tripped: make(chan struct{})}
}

// A ToolSilence counts the calls of one tool that ended in a timeout with no verdict in between.
type ToolSilence struct {
	run     *Silence
	idx     int
	inARow  int
	last    string // the last timeout's detail
	stopped bool   // the tool stopped on silence
	stop    context.CancelCauseFunc
}

// ForTool gives tool i a Stop of its own, which ends with stop (the run's), when tool i stops on
// silence, or when a tool before it does; release frees it. On a nil Silence (Check), stop
// itself and a nil count that counts nothing.
func (s *Silence) ForTool(i int, stop context.Context) (context.Context, *ToolSilence, func()) {
	if s == nil {
		return stop, nil, func() {}
	}
	parent := stop
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cut >= 0 && s.cut < i {
		cancel(s.why)
	}
	s.running[i] = cancel
	release := func() {
		s.mu.Lock()
		delete(s.running, i)
		s.mu.Unlock()
		cancel(nil)
	}
	return ctx, &ToolSilence{run: s, idx: i, stop: cancel}, release
}

// TrippedDone is closed once some tool stopped on silence (nil Silence: never).
func (s *Silence) TrippedDone() <-chan struct{} {
	if s == nil {
		return nil
	}
	return s.tripped
}

// Cutoff is the index of the first tool that stopped on silence and what its stop said; -1 and
// nil when none did.
func (s *Silence) Cutoff() (int, error) {
	if s == nil {
		return -1, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cut, s.why
}

// trip records that tool i stopped on silence with why, and stops the tools after the cut.
func (s *Silence) trip(i int, why error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cut < 0 {
		close(s.tripped)
	}
	if s.cut >= 0 && s.cut < i {
		return
	}
	s.cut, s.why = i, why
	for j, cancel := range s.running {
		if j > i {
			cancel(why)
		}
	}
}

// observe counts the verdicts of one batch of calls, in the order drawn, and reports whether
// the tool stops here: the limit-th timeout in a row is among them. Nothing counts once
// the tool stopped, nor on a nil count.
func (t *ToolSilence) observe(vs []validator.Verdict) bool {
	if t == nil || t.stopped {
		return false
	}
	for _, v := range vs {
		switch {
		case v.NotSent:
		case v.Fault == validator.Timeout:
			t.inARow++
			t.last = v.Detail
		default:
			t.inARow = 0
		}
		if t.inARow >= t.run.limit {
			break
		}
	}
	if t.inARow < t.run.limit {
		return false
	}
	t.stopped = true
	why := fmt.Errorf("the validator stopped answering: %d calls in a row got no verdict (the last: %s)",
		t.run.limit, t.last)
	t.stop(why)
	t.run.trip(t.idx, why)
	return true
}
