package harness

import (
	"errors"
	"runtime"

	"pgregory.net/rapid"
)

// Shrinking is bounded by steps, never by time: rapid stops minimising after its
// -rapid.shrinktime, so how small a case gets would depend on how busy the machine is. The
// harness gives rapid all the time there is (rapidSeam sets a day) and counts the draws it
// sends to the gate instead; once they are spent, rapid is stopped where it is (runHaltable)
// and the last case that failed is the minimal one, so the same seed gives the same minimal
// case on any machine, under any load.

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
	halt
	left       int
	started    bool // the property has failed: rapid is minimising
	confirm    bool // the next run confirms the failure just seen
	confirming bool // the run under way is such a confirmation
}

func newShrinkSteps(n int) *shrinkSteps { return &shrinkSteps{left: n} }

// next lets the property run once more, or ends the shrink (halt.end) when the steps are
// spent or the run is stopped.
func (s *shrinkSteps) next(stopped bool) {
	s.confirming, s.confirm = s.confirm, false
	switch {
	case stopped:
		s.end()
	case s.confirming || !s.started:
		return
	case s.left <= 0:
		s.end()
	}
	s.left--
}

// failed records that the run under way failed.
func (s *shrinkSteps) failed() {
	if !s.confirming {
		s.started, s.confirm = true, true
	}
}

// halt ends a property's rapid.Check from inside the property (see runHaltable).
type halt struct{ ended bool }

// end ends the goroutine rapid runs in; runHaltable returns errHalted.
func (h *halt) end() {
	h.ended = true
	runtime.Goexit()
}

// errHalted is what runHaltable returns when the property ended the check.
var errHalted = errors.New("toolproof: the check was ended before rapid was done")

// runHaltable is runCheck for a property that may end the check early (halt.end: a shrink
// whose steps are spent, a run that was stopped): rapid runs in a goroutine of its own, which
// the property ends. rapid has no way to be stopped from a property (it recovers panics as
// failures, and after the last useful try it would still walk every recorded bit, a minute
// and more on a big value). A gate that ends the goroutine itself (t.Fatal in a Go gate) ends
// the caller's too, as it would inline.
func runHaltable(name string, prop func(*rapid.T), h *halt) error {
	var err error
	var panicked any
	finished := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				panicked = r
			}
		}()
		err = runCheck(name, prop)
		finished = true
	}()
	<-done
	switch {
	case panicked != nil:
		panic(panicked)
	case finished:
		return err
	case h.ended:
		return errHalted
	}
	runtime.Goexit()
	return nil
}

// stopped reports whether the run was stopped (Options.Stop).
func (o Options) stopped() bool { return o.Stop != nil && o.Stop.Err() != nil }

// stopDone is Options.Stop's Done channel, nil (never ready) without one.
func (o Options) stopDone() <-chan struct{} {
	if o.Stop == nil {
		return nil
	}
	return o.Stop.Done()
}
