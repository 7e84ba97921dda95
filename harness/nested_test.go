package harness_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// nestingGate runs a whole toolproof run, with other rapid settings, inside its first call.
type nestingGate struct {
	validator.Gate
	started *atomic.Bool
	inner   chan *report.Report
	read    tool.Tool
}

func (g nestingGate) Check(ctx context.Context, args []byte) validator.Verdict {
	if g.started.CompareAndSwap(false, true) {
		rep, err := harness.Run([]tool.Tool{g.read}, oracle.Reference{}, harness.Options{Checks: 10, Seed: 9})
		if err != nil {
			rep = nil
		}
		g.inner <- rep
	}
	return g.Gate.Check(ctx, args)
}

type nestingValidator struct{ g nestingGate }

func (nestingValidator) Name() string { return "nesting" }
func (v nestingValidator) Compile(t tool.Tool) (validator.Gate, error) {
	g, err := oracle.Reference{}.Compile(t)
	v.g.Gate = g
	return v.g, err
}

// TestNestedRunWithOtherSettings: rapid reads its settings from process flags, so a run inside
// a gate of another run, with other checks or seed, cannot start until the outer one ends. It
// does not wait forever: the outer run gives up on the call after Options.Timeout (a timeout
// finding, as for any gate that hangs) and ends, and then the inner run goes on with its own
// settings.
func TestNestedRunWithOtherSettings(t *testing.T) {
	read, _ := sample.Tools().Lookup("read")
	v := nestingValidator{nestingGate{started: &atomic.Bool{}, inner: make(chan *report.Report, 1), read: read}}
	outer, err := harness.Run([]tool.Tool{read}, v,
		harness.Options{Checks: 5, Seed: 1, Timeout: 300 * time.Millisecond, ShrinkSteps: 20})
	if err != nil {
		t.Fatal(err)
	}
	if !kinds(outer)[report.Timeout] {
		t.Errorf("the outer run has no timeout finding for the call that waited on the inner run: %v", outer.Findings)
	}
	select {
	case inner := <-v.g.inner:
		if inner == nil || !inner.Passed || inner.Seed != 9 {
			t.Fatalf("the inner run: %+v", inner)
		}
		want := 10
		if testing.Short() {
			want = 2 // rapid runs a fifth with -short
		}
		if inner.Classes["valid"].Cases != want {
			t.Errorf("the inner run made %d valid cases, want %d (its own checks, not the outer run's)",
				inner.Classes["valid"].Cases, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the inner run did not end within 30 s of the outer one")
	}
}
