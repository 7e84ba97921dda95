package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// runFake runs the harness against the fake in mode over HTTP, served as hopts has it (its
// transport faults among them).
func runFake(t *testing.T, mode string, hopts fakeserver.HTTPOptions, opts mcp.Options,
	checks int) (*report.Report, *mcp.Client, *fakeserver.HTTPServer) {
	t.Helper()
	c, fake, _ := startHTTP(t, mode, hopts, opts)
	rep, err := harness.Run(fakeserver.Tools, c,
		harness.Options{Jobs: 2, Checks: checks, Seed: 7, ShrinkSteps: shrinkSteps})
	if err != nil {
		t.Fatal(err)
	}
	return rep, c, fake
}

// noVerdictFindings fails the test for a finding that judges the gate (missed, false_reject, a
// blocking crash) in a run against a correct gate.
func noVerdictFindings(t *testing.T, what string, rep *report.Report) {
	t.Helper()
	for _, f := range rep.Findings {
		if f.Blocking || f.Kind == report.Missed || f.Kind == report.FalseReject {
			t.Errorf("%s: a finding on the gate: %s %s %s: %s", what, f.Tool, f.Class, f.Kind, f.Detail)
		}
	}
}

// TestHTTPAnswerToAnotherRequest: a server that answers each POST with the answer to the call
// before it (as JSON, or as an event stream) gives no verdict on the gate: an answer that names
// another request's id is not this call's, the call is sent again, and when every try gets
// another's answer the run ends as a fault of the run, the calls after it not sent.
func TestHTTPAnswerToAnotherRequest(t *testing.T) {
	for _, form := range []fakeserver.HTTPOptions{{}, {Legacy: true}, {SSE: true}} {
		form.Faults.Lag = true
		rep, c, _ := runFake(t, "correct", form, mcp.Options{}, 20)
		noVerdictFindings(t, "lagging server", rep)
		var gone *mcp.GoneError
		if !errors.As(c.Err(), &gone) || !gone.Unusable || !strings.Contains(gone.Error(), "with the answer to id") ||
			!strings.Contains(gone.Error(), "cannot be matched to the calls") {
			t.Errorf("legacy %v, SSE %v: Err %v: want an unusable-answers GoneError", form.Legacy, form.SSE, c.Err())
		}
	}
}

// TestHTTPRandom500: a correct gate behind a server that fails random calls (500, reset; each run
// others): the calls are sent again (by the client, then alone by the harness's crash blame),
// no finding judges the gate, and the same seed gives the same findings as a server without
// faults; as long as the client's own retries succeed, the same report byte for byte.
func TestHTTPRandom500(t *testing.T) {
	clean, _, _ := runFake(t, "lenient", fakeserver.HTTPOptions{}, mcp.Options{}, unshort(15))
	want := findingKeys(clean)
	var cleanText bytes.Buffer
	clean.Write(&cleanText, "json")
	texts := []string{cleanText.String()}
	for _, times := range []int{1, 1, 3} {
		faults := fakeserver.TransportFaults{FlakyCalls: 4, FlakyTimes: times}
		rep, _, fake := runFake(t, "lenient", fakeserver.HTTPOptions{Faults: faults}, mcp.Options{}, unshort(15))
		if failed, _ := fake.FaultsMade(); failed == 0 {
			t.Fatalf("the server failed no call: the test tests nothing")
		}
		for _, f := range rep.Findings {
			if f.Kind == report.Crash {
				t.Errorf("failed %d times a call: a crash blamed on %s: %s", times, f.Args, f.Detail)
			}
		}
		if got := findingKeys(rep); got != want {
			t.Errorf("failed %d times a call: findings\n%s\nwant (no faults)\n%s", times, got, want)
		}
		if times == 1 {
			var b bytes.Buffer
			rep.Write(&b, "json")
			texts = append(texts, b.String())
		}
	}
	for i := 1; i < len(texts); i++ {
		if texts[i] != texts[0] {
			t.Errorf("a run of seed 7 whose server failed calls differs from one without faults:\n%s\n%s",
				texts[i], texts[0])
		}
	}
}

// findingKeys lists a report's findings: tool, class, kind and minimal case.
func findingKeys(rep *report.Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		b.WriteString(f.Tool + " " + string(f.Class) + " " + string(f.Kind) + " " + string(f.Args) + "\n")
	}
	return b.String()
}

// TestHTTPRotatingSession: a server that gives a new session id on every answer and forgets
// the old one gives no crash blamed on a call: the client keeps the new id and sends the calls
// one at a time, so that no call goes with a stale session.
func TestHTTPRotatingSession(t *testing.T) {
	hopts := fakeserver.HTTPOptions{Legacy: true, Faults: fakeserver.TransportFaults{Rotate: true}}
	rep, c, _ := runFake(t, "correct", hopts, mcp.Options{}, 20)
	noVerdictFindings(t, "rotating sessions", rep)
	if c.Err() != nil || !strings.Contains(strings.Join(c.Notes(), "\n"), "sent one at a time") {
		t.Errorf("Err %v, notes %q: want a complete run and a note saying why the calls went one at a time",
			c.Err(), c.Notes())
	}
}

// TestHTTPHugeAnswer: an answer that goes on for 10 GiB is read up to mcp.MaxMessageSize and
// no further, once, not call after call: the session ends, and the run with it, with an error
// naming the limit; no finding judges the gate.
func TestHTTPHugeAnswer(t *testing.T) {
	rep, c, fake := runFake(t, "correct", fakeserver.HTTPOptions{Faults: fakeserver.TransportFaults{Huge: true}},
		mcp.Options{Window: 2}, 10)
	noVerdictFindings(t, "huge answers", rep)
	var gone *mcp.GoneError
	if !errors.As(c.Err(), &gone) || !strings.Contains(gone.Error(), "(mcp.MaxMessageSize)") {
		t.Errorf("Err %v: want a GoneError naming mcp.MaxMessageSize", c.Err())
	}
	if _, written := fake.FaultsMade(); written > 6*mcp.MaxMessageSize {
		t.Errorf("the server wrote %d MiB of huge answers before the client stopped", written>>20)
	}
	g, err := c.Compile(fakeserver.Tools[0])
	if err != nil {
		t.Fatal(err)
	}
	if v := g.Check(context.Background(), []byte(`{"hour":1}`)); !v.NotSent {
		t.Errorf("a call after the huge answer: %+v, want not sent", v)
	}
}

// TestHTTPNoNewSession: a server whose session expires and which then refuses every new one
// ends the run as its fault: the calls after it are not sent, none is blamed.
func TestHTTPNoNewSession(t *testing.T) {
	hopts := fakeserver.HTTPOptions{Legacy: true, ExpireEvery: 30, Faults: fakeserver.TransportFaults{OneSession: true}}
	rep, c, _ := runFake(t, "correct", hopts, mcp.Options{}, 20)
	noVerdictFindings(t, "no new session", rep)
	var gone *mcp.GoneError
	if !errors.As(c.Err(), &gone) || !strings.Contains(gone.Error(), "no more sessions") {
		t.Errorf("Err %v: want a GoneError naming the refused initialize", c.Err())
	}
}
