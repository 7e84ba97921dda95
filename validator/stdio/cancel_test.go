package stdio

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/toolproof/toolproof/validator"
)

// TestCancelledBatchIsNotSentAgain: the calls of a batch whose caller gave up (its context
// ended: a tool that stopped) are not written again after the restart the hung one causes, so
// that a later call waits one timeout, not one per cancelled call.
func TestCancelledBatchIsNotSentAgain(t *testing.T) {
	c, _ := startFake(t, "hang", 0, Options{Timeout: 200 * time.Millisecond, Processes: 1})
	g := compile(t, c, readTool)
	const n = 8
	args := make([][]byte, n)
	for i := range args {
		args[i] = []byte(hangText)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan []validator.Verdict)
	go func() { done <- g.CheckBatch(ctx, args) }()
	for c.Stats().Requests < n {
		time.Sleep(time.Millisecond)
	}
	cancel()
	for _, v := range <-done {
		if v.Fault != validator.Timeout || !bytes.Contains([]byte(v.Detail), []byte("cancelled")) {
			t.Fatalf("a cancelled call got %+v, want Timeout cancelled", v)
		}
	}
	if v := g.Check(context.Background(), []byte(`{"path":"a"}`)); v.Fault != "" || !v.Valid {
		t.Fatalf("the call after the cancelled batch got %+v, want valid", v)
	}
	if r := c.Stats().Restarts; r > 1 {
		t.Errorf("%d restarts: the cancelled calls were written again after the first one hung, each costing a "+
			"timeout; want at most 1", r)
	}
}
