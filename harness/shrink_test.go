package harness_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// slowCoercing is a gate that reads numeric strings as numbers (a missed stringified_type on
// every tool with a number), and waits delay on each call.
func slowCoercing(delay time.Duration) validator.Validator {
	return wrapRef("coerce-slow", nil, func(v any) any {
		time.Sleep(delay)
		return mapValues(v, func(e any) any {
			if s, ok := e.(string); ok && jsonvalue.IsNumber(strings.TrimSpace(s)) {
				return json.Number(strings.TrimSpace(s))
			}
			return e
		})
	})
}

// hog keeps a processor busy until stop is called.
func hog() (stop func()) {
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		for {
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	return func() { close(done); <-ended }
}

// Shrinking is bounded by steps, not time: the same seed gives byte-identical JSON reports
// whether the gate answers at once or slowly beside a CPU hog.
func TestShrinkIsTheSameUnderLoad(t *testing.T) {
	tools := toolsNamed(t, []string{"read"})
	opts := harness.Options{Checks: unshort(5), Seed: 7, Jobs: 2, ShrinkSteps: 30, Timeout: time.Minute}
	report := func(v validator.Validator) []byte {
		rep, err := harness.Run(tools, v, opts)
		if err != nil {
			t.Fatal(err)
		}
		shrunk := 0
		for _, f := range rep.Findings {
			if f.Shrunk {
				shrunk++
			}
		}
		if shrunk == 0 {
			t.Fatalf("no finding was shrunk: the test shows nothing")
		}
		var b bytes.Buffer
		if err := rep.Write(&b, "json"); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	fast := report(slowCoercing(0))
	stop := hog()
	slow := report(slowCoercing(time.Millisecond))
	stop()
	if !bytes.Equal(fast, slow) {
		t.Fatalf("the reports differ:\nfast %s\nslow %s", fast, slow)
	}
}

// The shrink stops after its steps, whatever rapid would still try: a budget of one step
// keeps the first failing case, a bigger one makes it no bigger.
func TestShrinkStepsBoundTheShrink(t *testing.T) {
	tools := toolsNamed(t, []string{"create_chart"})
	args := func(steps int) string {
		rep, err := harness.Run(tools, slowCoercing(0),
			harness.Options{Checks: 10, Seed: 7, Jobs: 1, ShrinkSteps: steps})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Findings {
			if f.Shrunk {
				return string(f.Args)
			}
		}
		t.Fatal("no finding was shrunk")
		return ""
	}
	one, many := args(1), args(500)
	if len(many) >= len(one) {
		t.Errorf("500 steps gave %s, no smaller than 1 step's %s", many, one)
	}
}
