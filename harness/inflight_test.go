package harness_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// outOfOrder serves v's gates as validator.BatchGates (as a gate in another process is) that
// answer each batch of several cases after a delay that turns (long, middle, short), so that
// later batches are answered first. It records how many batches were in flight at most.
type outOfOrder struct {
	validator.Validator
	mu        sync.Mutex
	in, most  int
	batches   int
	delayUnit time.Duration
}

func (o *outOfOrder) Compile(t tool.Tool) (validator.Gate, error) {
	g, err := o.Validator.Compile(t)
	if err != nil {
		return nil, err
	}
	return &outOfOrderGate{g, o}, nil
}

type outOfOrderGate struct {
	validator.Gate
	o *outOfOrder
}

func (g *outOfOrderGate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	o := g.o
	o.mu.Lock()
	o.in++
	o.batches++
	o.most = max(o.most, o.in)
	// The first batch of a group of three waits longest: answers come back out of order.
	// A batch of one case (a shrinking step) is answered at once.
	delay := time.Duration(3-o.batches%3) * o.delayUnit
	if len(args) == 1 {
		delay = 0
	}
	o.mu.Unlock()
	time.Sleep(delay)
	out := make([]validator.Verdict, len(args))
	for i, a := range args {
		out[i] = g.Check(ctx, a)
	}
	o.mu.Lock()
	o.in--
	o.mu.Unlock()
	return out
}

// TestInFlightSameReport: against a gate that answers batches out of order with many of them in
// flight, the report is the same as when each check's cases are answered before the next are
// drawn (the same gate without CheckBatch), findings, minimal cases and counts included, for
// one job and for two.
func TestInFlightSameReport(t *testing.T) {
	set := corpus.Tools()
	tools, err := set.Pick("read", "edit_files", "execute_code")
	if err != nil {
		t.Fatal(err)
	}
	bad := brokenValidators()[0].v // coerces numeric and boolean strings: findings to shrink
	opts := harness.Options{Checks: 40, Seed: 7}
	want := reportJSON(t, tools, bad, opts)
	for _, jobs := range []int{1, 2} {
		opts.Jobs = jobs
		ooo := &outOfOrder{Validator: bad, delayUnit: 200 * time.Microsecond}
		got := reportJSON(t, tools, ooo, opts)
		if got != want {
			t.Errorf("jobs=%d: the report differs when answers come out of order (-in order +out of order):\n%s", jobs, cmp.Diff(want, got))
		}
		if ooo.most < 2 {
			t.Errorf("jobs=%d: at most %d batch in flight at once (of %d): the checks are not kept in flight", jobs, ooo.most, ooo.batches)
		}
	}
}

func reportJSON(t *testing.T, tools []tool.Tool, v validator.Validator, opts harness.Options) string {
	t.Helper()
	rep, err := harness.Run(tools, v, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed {
		t.Fatal("the broken validator passed: the test no longer compares findings")
	}
	b, err := json.MarshalIndent(rep, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
