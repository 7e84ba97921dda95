package harness

import (
	"errors"
	"runtime"

	"pgregory.net/rapid"
)

// Shrinking is bounded by steps, never by time: rapid stops minimising after its
// -rapid.shrinktime, so how small a case gets would depend on how busy the machine is. The
// harness gives rapid all the time there is (rapidSeam sets a day) and counts the draws it
// sends to the gate instead; once they are spent, rapid is stopped where it is (runShrink)
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
	left       int
	started    bool // the property has failed: rapid is minimising
	confirm    bool // the next run confirms the failure just seen
	confirming bool // the run under way is such a confirmation
	spent      bool // the property ended the shrink
}

func newShrinkSteps(n int) *shrinkSteps { return &shrinkSteps{left: n} }

// next lets the property run once more, or ends the shrink (runtime.Goexit, which
// runShrink expects) when the steps are spent.
func (s *shrinkSteps) next() {
	s.confirming, s.confirm = s.confirm, false
	switch {
	case s.confirming || !s.started:
		return
	case s.left <= 0:
		s.spent = true
		runtime.Goexit()
	}
	s.left--
}

// failed records that the run under way failed.
func (s *shrinkSteps) failed() {
	if !s.confirming {
		s.started, s.confirm = true, true
	}
}

// errSpent is what runShrink returns when the steps ran out before rapid was done.
var errSpent = errors.New("toolproof: the shrink steps are spent")

// runShrink is runCheck for a property that minimises one finding within steps: rapid runs in
// a goroutine of its own, which the property ends when the steps are spent. rapid has no way
// to be stopped from a property (it recovers panics as failures, and after the last useful
// try it would still walk every recorded bit, a minute and more on a big value). A gate that
// ends the goroutine itself (t.Fatal in a Go gate) ends the caller's too, as it would inline.
func runShrink(name string, prop func(*rapid.T), steps *shrinkSteps) error {
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
	case steps.spent:
		return errSpent
	}
	runtime.Goexit()
	return nil
}
