package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
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
	crashOn   string // a case holding it crashes the "process", alone too
	hangOn    string // a case holding it gets no verdict: a timeout, as from a process that hangs on it
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
		out[i] = g.CheckAlone(ctx, a)
	}
	o.mu.Lock()
	o.in--
	o.mu.Unlock()
	return out
}

func (g *outOfOrderGate) CheckAlone(ctx context.Context, args []byte) validator.Verdict {
	if g.o.crashOn != "" && strings.Contains(string(args), g.o.crashOn) {
		return validator.Failed(validator.Crash, "the validator process ended (exit status 2)")
	}
	if g.o.hangOn != "" && strings.Contains(string(args), g.o.hangOn) {
		return validator.Failed(validator.Timeout, "no answer within 5s; the validator was restarted")
	}
	return g.Check(ctx, args)
}

// TestInFlightCrashesSameReport: a gate that crashes on every case holding "~" gives the same
// report, its cases not sent after proven crashes included, whether its batches are answered in
// order at once or out of order after delays, with one job and two.
func TestInFlightCrashesSameReport(t *testing.T) {
	tools := sample.Tools().Tools[:12]
	opts := harness.Options{Checks: 30, Seed: 3}
	var want string
	for i, run := range []struct {
		jobs  int
		delay time.Duration
	}{{1, 0}, {1, 200 * time.Microsecond}, {2, 200 * time.Microsecond}} {
		opts.Jobs = run.jobs
		ooo := &outOfOrder{Validator: oracle.Reference{}, delayUnit: run.delay, crashOn: "~"}
		got := reportJSON(t, tools, ooo, opts)
		if !strings.Contains(got, "not sent (not run: the validator crashes on") {
			t.Fatalf("jobs=%d delay=%v: no case held back after a proven crash: the test shows nothing",
				run.jobs, run.delay)
		}
		if i == 0 {
			want = got
			continue
		}
		if got != want {
			t.Errorf("jobs=%d delay=%v: the report differs (-in order +out of order):\n%s", run.jobs,
				run.delay, cmp.Diff(want, got))
		}
	}
}

// TestInFlightSameReport: against a gate that answers batches out of order with many of them in
// flight, the report is the same as when each check's cases are answered before the next are
// drawn (the same gate without CheckBatch), findings, minimal cases and counts included, for
// one job and for two.
func TestInFlightSameReport(t *testing.T) {
	set := sample.Tools()
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
			t.Errorf("jobs=%d: the report differs when answers come out of order (-in order +out of order):\n%s",
				jobs, cmp.Diff(want, got))
		}
		if ooo.most < 2 {
			t.Errorf("jobs=%d: at most %d batch in flight at once (of %d): the checks are not kept in flight",
				jobs, ooo.most, ooo.batches)
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
