package harness_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// A gate that dies on every call holding "~": each crash reported holds it (the blame is
// exact), and once a tool has a proven crash, the distortions of a valid value that crashes it
// and the classes that keep crashing it are not sent, and the notes say so.
func TestCrashingGateCostsLittle(t *testing.T) {
	var crashes atomic.Int64
	gate := validator.Func("dies-on-tilde", func(tl tool.Tool) (func([]byte) (any, error), error) {
		gk, err := oracle.Compile(tl)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) {
			if strings.Contains(string(args), "~") {
				crashes.Add(1)
				panic("a tilde")
			}
			_, err := gk.Parse(args)
			return nil, err
		}, nil
	})
	rep, err := harness.Run(sample.Tools().Tools, gate, harness.Options{Checks: unshort(10), Seed: 1, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range rep.Findings {
		if f.Kind != report.Crash {
			if f.Blocking {
				t.Errorf("a %s finding against a gate that only crashes: %s", f.Kind, f)
			}
			continue
		}
		found++
		if !strings.Contains(string(f.Args), "~") {
			t.Errorf("a crash blamed on a call without ~: %s %s", f.Tool, f.Args)
		}
	}
	notSent := 0
	for _, n := range rep.Notes {
		if strings.Contains(n, "not sent (not run: the validator crashes on") {
			notSent++
		}
	}
	if found == 0 || notSent == 0 {
		t.Fatalf("%d crash findings, %d notes of cases not sent: %v", found, notSent, rep.Notes)
	}
	t.Logf("%d crash findings, %d calls crashed, %d tools with cases not sent", found, crashes.Load(), notSent)
}
