package harness

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolproof/toolproof/validator"
)

// MaxSilentCalls is how many calls in a row may end in a timeout before the run is stopped:
// the validator has stopped answering (an external one is restarted after each timeout, so it
// stayed silent through restarts too), and going on would cost every remaining case its own
// timeout. The run ends as an interrupted one, with the report of what was checked.
const MaxSilentCalls = 4

// silence counts the calls of a run that ended in a timeout with no verdict in between.
type silence struct {
	mu      sync.Mutex
	inARow  int
	timeout string // the last timeout's detail
	stop    context.CancelCauseFunc
}

// watchSilence gives opts a Stop that also ends when the validator stays silent, and the
// silence that counts; release frees the context.
func watchSilence(opts Options) (Options, *silence, func()) {
	parent := opts.Stop
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	opts.Stop = ctx
	return opts, &silence{stop: cancel}, func() { cancel(nil) }
}

// observe counts the verdicts of one batch of calls.
func (s *silence) observe(vs []validator.Verdict) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range vs {
		switch {
		case v.NotSent:
		case v.Fault == validator.Timeout:
			s.inARow++
			s.timeout = v.Detail
		default:
			s.inARow = 0
		}
	}
	if s.inARow >= MaxSilentCalls {
		s.stop(fmt.Errorf("the validator stopped answering: %d calls in a row got no verdict (the last: %s)", s.inARow, s.timeout))
	}
}
