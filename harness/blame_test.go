package harness_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// flakyDeaths is a correct validator whose process "dies" under the first few batches of
// calls, every call of the batch cut short by the same death, with the same stderr each time;
// run alone, every call is fine. Such deaths are nobody's fault: none is a finding, and each
// is counted once, told apart by Verdict.Death although their details are the same.
type flakyDeaths struct {
	mu     sync.Mutex
	deaths uint64
	limit  uint64
}

func (f *flakyDeaths) Name() string { return "flaky" }

func (f *flakyDeaths) Compile(t tool.Tool) (validator.Gate, error) {
	g, err := validator.Reference{}.Compile(t)
	return flakyGate{g, f}, err
}

type flakyGate struct {
	validator.Gate
	f *flakyDeaths
}

func (g flakyGate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	out := make([]validator.Verdict, len(args))
	g.f.mu.Lock()
	death := uint64(0)
	if g.f.deaths < g.f.limit && len(args) > 1 {
		g.f.deaths++
		death = g.f.deaths
	}
	g.f.mu.Unlock()
	for i, a := range args {
		if death > 0 {
			out[i] = validator.Failed(validator.Crash, "the validator process ended (signal: killed)")
			out[i].Death = death
			continue
		}
		out[i] = g.Check(ctx, a)
	}
	return out
}

func (g flakyGate) CheckAlone(ctx context.Context, args []byte) validator.Verdict {
	return g.Check(ctx, args)
}

func TestDeathsNoCallReproducesAreCountedOnce(t *testing.T) {
	set := corpus.Tools()
	read, _ := set.Lookup("read")
	v := &flakyDeaths{limit: 3}
	rep, err := harness.Run([]tool.Tool{read}, v, harness.Options{Checks: 25, Seed: 1}) // rapid runs a fifth with -short
	if err != nil {
		t.Fatal(err)
	}
	if v.deaths != 3 {
		t.Fatalf("the fake died %d times, want 3: the test no longer tests anything", v.deaths)
	}
	for _, f := range rep.Findings {
		t.Errorf("a finding against a validator that is correct when each call runs alone: %s %s %s", f.Class, f.Kind, f.Args)
	}
	want := "died 3 times with calls in flight"
	found := false
	for _, n := range rep.Notes {
		found = found || strings.Contains(n, want)
	}
	if !found {
		t.Errorf("notes %q: want one saying %q", rep.Notes, want)
	}
}
