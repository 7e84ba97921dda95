package harness_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
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
	g, err := oracle.Reference{}.Compile(t)
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
	set := sample.Tools()
	read, _ := set.Lookup("read")
	v := &flakyDeaths{limit: 3}
	rep, err := harness.Run([]tool.Tool{read}, v,
		harness.Options{Checks: 25, Seed: 1}) // rapid runs a fifth with -short
	if err != nil {
		t.Fatal(err)
	}
	if v.deaths != 3 {
		t.Fatalf("the fake died %d times, want 3: the test no longer tests anything", v.deaths)
	}
	for _, f := range rep.Findings {
		t.Errorf("a finding against a validator that is correct when each call runs alone: %s %s %s",
			f.Class, f.Kind, f.Args)
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

// poisoned is a validator whose process dies on any batch that holds the value 13 for n,
// cutting every call in it short, and which rejects the value 7 it should accept.
type poisoned struct{}

func (poisoned) Name() string { return "poisoned" }

func (poisoned) Compile(t tool.Tool) (validator.Gate, error) {
	g, err := oracle.Reference{}.Compile(t)
	return poisonedGate{g}, err
}

type poisonedGate struct{ validator.Gate }

func (g poisonedGate) CheckAlone(ctx context.Context, args []byte) validator.Verdict {
	switch {
	case strings.Contains(string(args), "13"):
		return validator.Failed(validator.Crash, "the validator process ended (signal: segmentation fault)")
	case strings.Contains(string(args), "7"):
		return validator.Reject(validator.Issue{Message: "seven"})
	}
	return g.Check(ctx, args)
}

func (g poisonedGate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	out := make([]validator.Verdict, len(args))
	for i, a := range args {
		out[i] = g.CheckAlone(ctx, a)
	}
	for _, a := range args {
		if strings.Contains(string(a), "13") {
			for i := range out {
				out[i] = validator.Failed(validator.Crash, "the validator process ended (signal: segmentation fault)")
				out[i].Death = 1
			}
		}
	}
	return out
}

// Saved cases are not one draw: a valid case first that crashes the validator does not keep
// the cases after it from being judged.
func TestReplayedCasesAfterACrashAreJudged(t *testing.T) {
	cs := []corpus.Case{
		{Tool: "list", Expect: "accept", Class: "valid", Args: []byte(`{"n":13}`)},
		{Tool: "list", Expect: "accept", Class: "valid", Args: []byte(`{"n":7}`)},
	}
	rep, err := harness.Replay(cs, []tool.Tool{stateTool}, poisoned{}, harness.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, f := range rep.Findings {
		kinds = append(kinds, string(f.Kind)+" "+string(f.Args))
	}
	if len(rep.Findings) != 2 {
		t.Errorf("findings %q: want the crash on 13 and the rejection of 7", kinds)
	}
}
