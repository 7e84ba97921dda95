package harness_test

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

func TestReferencePassesOnTheCorpus(t *testing.T) {
	start := time.Now()
	rep, err := harness.Run(sample.Tools().Tools, oracle.Reference{}, harness.Options{RequireLocation: true})
	if err != nil {
		t.Fatal(err)
	}
	for c, st := range rep.Classes {
		if st.Located != st.Rejected {
			t.Errorf("%s: the reference located %d of the %d cases it rejected; it reports every issue where it is", c,
				st.Located, st.Rejected)
		}
	}
	if !rep.Passed || len(rep.Findings) > 0 {
		rep.Write(os.Stderr, "text")
		t.Fatalf("the reference validator has findings")
	}
	if len(rep.Skipped) > 0 {
		t.Fatalf("skipped: %v", rep.Skipped)
	}
	t.Logf("%d tools, %d cases in %v", rep.Tools, rep.Cases, time.Since(start))
}

// fewTools are corpus tools that between them have every feature a broken validator below
// trips on (numbers and booleans, closed objects, nested enums, arrays of strings, bounds): the
// set for -short.
var fewTools = []string{"read", "todo_write", "deploy_service", "issues_create", "create_chart",
	"git_commit", "web_search"}

func toolsNamed(t *testing.T, names []string) []tool.Tool {
	t.Helper()
	out, err := sample.Tools().Pick(names...)
	if err != nil {
		t.Fatalf("the corpus: %v", err)
	}
	return out
}

func TestBrokenValidatorsAreCaught(t *testing.T) {
	few := toolsNamed(t, fewTools)
	// A bug every tool shows needs one small tool: the full corpus would only cost time (a hang
	// costs the timeout on each tool, a mutated input a shrink of every class).
	one := toolsNamed(t, []string{"read"})
	for _, b := range brokenValidators() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			opts := b.opts
			// These tests find, they do not grade, the minimal case: a short shrink will do.
			opts.Timeout, opts.Jobs, opts.ShrinkSteps = 200*time.Millisecond, 1, 100
			// The few tools hold every feature a bug below trips on, and each tool is drawn on
			// its own (its checks do not depend on the other tools), so a bug they show is shown
			// on the whole corpus too: the corpus would only multiply the work by five. A bug
			// shown "within a few checks" on the corpus needs the default checks on the few.
			tools := few
			opts.Checks = 0
			if b.everyTool {
				tools = one
				opts.Checks = b.opts.Checks
			}
			rep, err := harness.Run(tools, b.v, opts)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			var got []string
			for _, f := range rep.Findings {
				got = append(got, string(f.Kind)+"/"+string(f.Class))
				if string(f.Kind) == b.want || string(f.Kind)+"/"+string(f.Class) == b.want {
					found = true
				}
			}
			if !found || rep.Passed {
				t.Errorf("%s: want a %s finding; got %v", b.v.Name(), b.want, got)
			}
			t.Logf("%d findings in %v", len(rep.Findings), time.Since(start))
		})
	}
}

// A gate that reports an unknown or missing key at the object that holds or lacks it (as Ajv
// does) locates it: under --require-location it gets no finding.
func TestKeysLocatedAtTheirObject(t *testing.T) {
	objectLevel := reportsAs("object-level", func(_ []byte, is []validator.Issue) []validator.Issue {
		for i := range is {
			if is[i].Keyword == "additionalProperties" || is[i].Keyword == "required" {
				is[i].Path = jsonvalue.Parent(is[i].Path)
			}
		}
		return is
	})
	tools := sample.Tools().Tools
	rep, err := harness.Run(tools, objectLevel, harness.Options{RequireLocation: true, Checks: 10, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		t.Errorf("finding against a gate that reports keys at their object: %s\n  args %s\n  %s", f, f.Args, f.Detail)
	}
}

// A Go gate that ends its goroutine (t.Fatal from a gate does) stops its tool, not the run.
func TestGoexitInAGateStopsOnlyItsTool(t *testing.T) {
	tools := sample.Tools().Tools[:6]
	stops := validator.Func("goexit", func(tl tool.Tool) (func([]byte) (any, error), error) {
		if tl.Name == tools[1].Name {
			runtime.Goexit()
		}
		gk, err := oracle.Compile(tl)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) { _, err := gk.Parse(args); return nil, err }, nil
	})
	done := make(chan *report.Report, 1)
	go func() {
		rep, _ := harness.Run(tools, stops, harness.Options{Jobs: 2, Checks: 5, Seed: 1})
		done <- rep
	}()
	select {
	case rep := <-done:
		if rep.Tools != len(tools)-1 || len(rep.Skipped) != 1 || rep.Skipped[0].Tool != tools[1].Name {
			t.Errorf("tools %d, skipped %v; want %d tools and %s skipped", rep.Tools, rep.Skipped,
				len(tools)-1, tools[1].Name)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the run hangs after a gate ended its goroutine")
	}
}
