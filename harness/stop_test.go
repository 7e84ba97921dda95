package harness_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// A run whose Stop is done part way ends early: the tools under way are reported, those not
// begun are not, and the report says why and how far it got, and does not pass.
func TestStoppedRunReportsWhatWasChecked(t *testing.T) {
	tools := sample.Tools().Tools
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	opts := harness.Options{Checks: 20, Seed: 1, Jobs: 1, Stop: ctx, Progress: func(done, total int) {
		if done == 3 {
			cancel(errors.New("enough"))
		}
	}}
	rep, err := harness.Run(tools, oracle.Reference{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed || rep.Tools == 0 || rep.Tools >= len(tools) || rep.Cases == 0 {
		t.Fatalf("passed %v, %d of %d tools, %d cases", rep.Passed, rep.Tools, len(tools), rep.Cases)
	}
	if !strings.HasPrefix(rep.Interrupted, "enough: ") || !strings.Contains(rep.Interrupted, "not begun") {
		t.Fatalf("interrupted %q", rep.Interrupted)
	}
}
