package harness_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// TestStoppedAnsweringSameReport: a gate that never answers a case holding "~" (every such
// case a timeout, as from a process that hangs on it) ends the run as one that stopped
// answering, with the same report byte for byte whether its batches are answered in order at
// once or out of order after delays, with one job and two: where the run stops, which checks
// and tools it reports, and what it says are decided by the seed, not by when the timeouts
// come.
func TestStoppedAnsweringSameReport(t *testing.T) {
	tools := sample.Tools().Tools[:12]
	opts := harness.Options{Checks: 30, Seed: 3}
	var want string
	for i, run := range []struct {
		jobs  int
		delay time.Duration
	}{{1, 0}, {1, 300 * time.Microsecond}, {2, 0}, {2, 300 * time.Microsecond}, {2, 300 * time.Microsecond}, {3,
		100 * time.Microsecond}} {
		opts.Jobs = run.jobs
		ooo := &outOfOrder{Validator: oracle.Reference{}, delayUnit: run.delay, hangOn: "~"}
		got := reportJSON(t, tools, ooo, opts)
		if !strings.Contains(got, "the validator stopped answering: 4 calls in a row got no verdict") {
			t.Fatalf("jobs=%d delay=%v: the run did not stop on the silent gate: the test shows nothing\n%s",
				run.jobs, run.delay, got)
		}
		if i == 0 {
			want = got
			continue
		}
		if got != want {
			t.Errorf("run %d, jobs=%d delay=%v: the report differs from the first (-want +got):\n%s", i+1, run.jobs,
				run.delay, cmp.Diff(want, got))
		}
	}
}
