package harness_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// silentBatches is a gate in another process that answers no batch: each CheckBatch waits
// until its context ends (or the test ends). Once blocked batches are waiting, it stops the
// run itself, as a signal or --max-time would.
type silentBatches struct {
	validator.Validator
	stop    context.CancelCauseFunc
	release chan struct{}
	mu      sync.Mutex
	blocked int
}

func (s *silentBatches) Compile(t tool.Tool) (validator.Gate, error) {
	g, err := s.Validator.Compile(t)
	if err != nil {
		return nil, err
	}
	return &silentBatchGate{g, s}, nil
}

type silentBatchGate struct {
	validator.Gate
	s *silentBatches
}

func (g *silentBatchGate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	s := g.s
	s.mu.Lock()
	s.blocked++
	if s.blocked == 3 {
		s.stop(errors.New("stopped by the test"))
	}
	s.mu.Unlock()
	select {
	case <-ctx.Done():
	case <-s.release:
	}
	s.mu.Lock()
	s.blocked--
	s.mu.Unlock()
	out := make([]validator.Verdict, len(args))
	for i := range out {
		out[i] = validator.Failed(validator.Timeout, "cancelled")
	}
	return out
}

func (s *silentBatches) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blocked
}

// TestStoppedToolCancelsItsChecksInFlight: when a tool stops (here the run's Stop; a validator
// that stops answering on it or on a tool before it does the same), the checks it still has in
// flight are cancelled: their calls do not stay in the validator, each costing a timeout of
// the processes the tools still running share, nor leave goroutines behind once Run returns.
func TestStoppedToolCancelsItsChecksInFlight(t *testing.T) {
	ctx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	s := &silentBatches{Validator: oracle.Reference{}, stop: stop, release: make(chan struct{})}
	defer close(s.release)
	rep, err := harness.Run(sample.Tools().Tools[:1], s, harness.Options{Checks: 30, Seed: 1, Jobs: 1, Stop: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Interrupted == "" {
		t.Fatal("the run was not stopped: the test shows nothing")
	}
	// Waiting for the cancellation to arrive, not timing it.
	for wait := time.Now().Add(20 * time.Second); s.waiting() > 0 && time.Now().Before(wait); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := s.waiting(); n > 0 {
		t.Errorf("%d checks of the stopped tool still wait in the gate 20s after Run returned: their calls were "+
			"never cancelled", n)
	}
}
