package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
	"github.com/toolproof/toolproof/validator/tool"
)

const secret = "tpk-live-7f3a9c2e1b"

func bearer() http.Header { return http.Header{"Authorization": {"Bearer " + secret}} }

// startHTTP serves the fake in mode over Streamable HTTP and starts the client on it.
func startHTTP(t *testing.T, mode string, hopts fakeserver.HTTPOptions, opts mcp.Options) (*mcp.Client,
	*fakeserver.HTTPServer, *syncBuffer) {
	t.Helper()
	fake := fakeserver.NewHTTP(mode, hopts)
	stderr := &syncBuffer{}
	opts.Stderr = stderr
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	c, err := mcp.StartHandler(fake, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, fake, stderr
}

// shrinkSteps bounds the minimising of a finding in the runs here that assert which findings a
// run has and that runs agree, not how small a case gets (the harness's tests hold that): each
// step is a call over a transport.
const shrinkSteps = 20

func findings(rep *report.Report) map[string]bool {
	found := map[string]bool{}
	for _, f := range rep.Findings {
		found[string(f.Class)+" "+string(f.Kind)] = true
	}
	return found
}

// TestHTTPLegacySessions: a 2025-11-25 server with sessions, SSE answers, a bearer token,
// sessions that expire and a 503 every fortieth POST. The lenient gate is caught with the right
// classes; every case keeps a verdict of its own; the session is ended with DELETE.
func TestHTTPLegacySessions(t *testing.T) {
	hopts := fakeserver.HTTPOptions{Token: secret, SSE: true, Legacy: true, ExpireEvery: 40,
		FlakyEvery: 40, EchoAuth: true}
	c, fake, stderr := startHTTP(t, "lenient", hopts, mcp.Options{Header: bearer()})
	if c.Protocol() != "2025-11-25" || c.Transport() != "Streamable HTTP" {
		t.Fatalf("protocol %q over %q", c.Protocol(), c.Transport())
	}
	rep, err := harness.Run(fakeserver.Tools, c,
		harness.Options{Jobs: 2, Checks: 30, Seed: 1, ShrinkSteps: shrinkSteps})
	if err != nil {
		t.Fatal(err)
	}
	found := findings(rep)
	for _, want := range []string{"stringified_type missed", "hallucinated_key missed"} {
		if !found[want] {
			t.Errorf("no %s finding; findings: %v", want, rep.Findings)
		}
	}
	for _, f := range rep.Findings {
		if f.Kind == report.Crash || f.Kind == report.Timeout || f.Kind == report.ProtocolError {
			t.Errorf("a retry or a new session was blamed on a case: %v %s", f, f.Detail)
		}
	}
	notes := strings.Join(c.Notes(), "\n")
	for _, want := range []string{"MCP over Streamable HTTP, protocol 2025-11-25 (chosen by initialize)",
		"a new session was started", "were sent again"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if fake.Expired.Load() == 0 {
		t.Error("no session expired")
	}
	c.Close()
	if fake.Deletes.Load() == 0 {
		t.Error("the session was not ended with DELETE")
	}
	var all bytes.Buffer
	for _, format := range []string{"text", "json", "markdown", "junit"} {
		rep.Write(&all, format)
	}
	all.WriteString(notes + stderr.String())
	for _, f := range rep.Findings {
		all.WriteString(f.Detail)
	}
	if strings.Contains(all.String(), secret) {
		t.Fatalf("the header value appears in the report, the notes or stderr")
	}
	if !strings.Contains(all.String(), "[header value]") {
		t.Errorf("the planted echo of the header was not seen replaced (the test would not catch a leak)")
	}
}

// TestHTTPModern: a dual-era server is spoken to in 2026-07-28: server/discover, _meta and the
// three headers on every request; the correct gate has no finding, and the -32602 form is
// a SEP-1303 note.
func TestHTTPModern(t *testing.T) {
	for _, tc := range []struct {
		mode string
		sse  bool
		note string
	}{{"correct", false, ""}, {"correct-rpc", true, "SEP-1303: "}} {
		c, fake, _ := startHTTP(t, tc.mode, fakeserver.HTTPOptions{SSE: tc.sse}, mcp.Options{})
		if c.Protocol() != "2026-07-28" || c.Name() != "mcp:fake-modern 0.1" {
			t.Fatalf("%s: protocol %q, name %q", tc.mode, c.Protocol(), c.Name())
		}
		rep, err := harness.Run(fakeserver.Tools, c, harness.Options{Jobs: 2, Checks: 20, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Findings {
			if f.Blocking {
				t.Errorf("%s: finding on a correct server: %v %s", tc.mode, f, f.Detail)
			}
		}
		if n := fake.Modern.Load(); n == 0 || n != fake.ModernHeaders.Load() {
			t.Errorf("%s: %d modern requests, %d with matching headers", tc.mode, n, fake.ModernHeaders.Load())
		}
		notes := strings.Join(c.Notes(), "\n")
		if !strings.Contains(notes, "protocol 2026-07-28 (chosen by server/discover") ||
			!strings.Contains(notes, tc.note) {
			t.Errorf("%s: notes %s", tc.mode, notes)
		}
		if tc.note == "" && strings.Contains(notes, "SEP-1303") {
			t.Errorf("%s: a SEP-1303 note on a server rejecting with isError", tc.mode)
		}
	}
	// With SEP1303 set, the -32602 rejections are protocol_error findings.
	c, _, _ := startHTTP(t, "correct-rpc", fakeserver.HTTPOptions{}, mcp.Options{SEP1303: true})
	rep, err := harness.Run(fakeserver.Tools[:1], c, harness.Options{Checks: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !findings(rep)["stringified_type protocol_error"] && !findings(rep)["out_of_range_enum protocol_error"] {
		t.Errorf("SEP1303: no protocol_error finding: %v", rep.Findings)
	}
}

// TestHTTPAuth: a wrong or missing token ends the start with an AuthError naming the status,
// never the token.
func TestHTTPAuth(t *testing.T) {
	for _, h := range []http.Header{nil, {"Authorization": {"Bearer wrong-" + secret}}} {
		srv := httptest.NewServer(fakeserver.NewHTTP("correct", fakeserver.HTTPOptions{Token: secret}))
		_, err := mcp.Start(mcp.Options{URL: srv.URL + "/mcp?key=" + secret, Header: h, Stderr: &syncBuffer{}})
		srv.Close()
		var ae *mcp.AuthError
		if !errors.As(err, &ae) || ae.Status != "401 Unauthorized" ||
			!strings.Contains(err.Error(), "401 Unauthorized") {
			t.Fatalf("error %v: want an AuthError naming 401 Unauthorized", err)
		}
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("the error shows the secret: %v", err)
		}
	}
}

// TestHTTPServerGone: a server that stops answering mid-run: the report is complete, the calls
// after it are not sent (not blamed), and Err and the notes say so.
func TestHTTPServerGone(t *testing.T) {
	t.Parallel() // its own server: it waits for the server to go
	c, _, _ := startHTTP(t, "correct", fakeserver.HTTPOptions{GoneAfter: 25}, mcp.Options{Timeout: 20 * time.Second})
	rep, err := harness.Run(fakeserver.Tools, c, harness.Options{Jobs: 2, Checks: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var gone *mcp.GoneError
	if !errors.As(c.Err(), &gone) {
		t.Fatalf("Err %v: want a GoneError", c.Err())
	}
	for _, f := range rep.Findings {
		if f.Blocking {
			t.Errorf("a finding blamed on a case after the server went away: %v %s", f, f.Detail)
		}
	}
	if !strings.Contains(strings.Join(c.Notes(), "\n"), "calls were not sent") {
		t.Errorf("notes %q", c.Notes())
	}
}

// TestHTTPDeterministic: the planted lenient gate over HTTP in 2026-07-28 is caught with the
// right classes, and the same seed gives the same report.
func TestHTTPDeterministic(t *testing.T) {
	var texts []string
	for range 2 {
		c, _, _ := startHTTP(t, "lenient", fakeserver.HTTPOptions{}, mcp.Options{})
		rep, err := harness.Run(fakeserver.Tools, c,
			harness.Options{Jobs: 2, Checks: unshort(15), Seed: 7, ShrinkSteps: shrinkSteps})
		if err != nil {
			t.Fatal(err)
		}
		if found := findings(rep); c.Protocol() != "2026-07-28" || !found["stringified_type missed"] ||
			!found["hallucinated_key missed"] {
			t.Fatalf("the lenient server in %s: findings %v", c.Protocol(), rep.Findings)
		}

		var b bytes.Buffer
		rep.Write(&b, "json")
		texts = append(texts, b.String())
	}
	if texts[0] != texts[1] {
		t.Fatalf("two runs with seed 7 differ:\n%s\n%s", texts[0], texts[1])
	}
}

// TestModernStdio: a stdio server of the 2026-07-28 era, which refuses initialize, is tested.
func TestModernStdio(t *testing.T) {
	c := start(t, fakeOptions(t, "modern"))
	if c.Protocol() != "2026-07-28" || c.Transport() != "stdio" {
		t.Fatalf("protocol %q over %s", c.Protocol(), c.Transport())
	}
	rep, err := harness.Run(fakeserver.Tools, c, harness.Options{Jobs: 2, Checks: 15, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Passed {
		t.Fatalf("findings on a correct modern server: %v", rep.Findings)
	}
}

// TestNullID: a stdio server that answers what its JSON reader cannot parse with -32700 and
// "id": null gets a rejection on those calls, never a timeout, and no line is left unread.
func TestNullID(t *testing.T) {
	opts := fakeOptions(t, "null-id")
	opts.Timeout = 30 * time.Second
	c := start(t, opts)
	rep, err := harness.Run(fakeserver.Tools, c, harness.Options{Jobs: 2, Checks: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Kind == report.Timeout || f.Blocking {
			t.Errorf("finding %v %s", f, f.Detail)
		}
	}
	if c.Forms()[mcp.FormRPCParseError] == 0 {
		t.Fatalf("no -32700 rejection counted: %v", c.Forms())
	}
	if s := opts.Stderr.(*syncBuffer).String(); strings.Contains(s, "ignored a line") {
		t.Errorf("lines ignored: %s", s)
	}
}

// nullServer is an in-memory stdio server that holds its first three tools/call answers until
// all three are in, then writes them: a call whose arguments hold "X" is answered -32700 with
// "id": null, "Y" -32600 with "id": null (and "X2" like "X"), any other a result with its id.
func nullServer(calls *atomic.Int64) func() (mcp.Conn, error) {
	answer := func(msg string) string {
		switch {
		case strings.Contains(msg, `"X`):
			return `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
		case strings.Contains(msg, `"Y"`):
			return `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`
		}
		return emptyResult(msg)
	}
	var held []string
	return pipeServer("nulls", func(w io.Writer, msg string) {
		if calls.Add(1) > 3 {
			fmt.Fprintln(w, answer(msg))
			return
		}
		held = append(held, msg)
		if len(held) == 3 {
			for _, h := range held {
				fmt.Fprintln(w, answer(h))
			}
		}
	})
}

// TestNullIDInFlight: errors with "id": null while three calls are in flight go to the calls
// left without an answer of their own: alike nulls at once, different ones after each such call
// is sent again alone. No call waits out its timeout.
func TestNullIDInFlight(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		want  []string
		calls int64
	}{
		{[]string{`{"a":"X"}`, `{"a":"X2"}`, `{"a":1}`},
			[]string{mcp.FormRPCParseError, mcp.FormRPCParseError, mcp.FormRan}, 3},
		{[]string{`{"a":"X"}`, `{"a":"Y"}`, `{"a":1}`},
			[]string{mcp.FormRPCParseError, mcp.FormRPCInvalidRequest, mcp.FormRan}, 5},
	} {
		var calls atomic.Int64
		c := start(t, mcp.Options{Dial: nullServer(&calls), Stderr: io.Discard, Timeout: time.Minute,
			StartTimeout: 200 * time.Millisecond})
		g, err := c.Compile(tool.Tool{Name: "t", Parameters: []byte(`{"type":"object"}`)})
		if err != nil {
			t.Fatal(err)
		}
		var args [][]byte
		for _, a := range tc.args {
			args = append(args, []byte(a))
		}
		vs := g.(validator.BatchGate).CheckBatch(context.Background(), args)
		forms := c.Forms()
		for i, v := range vs {
			if v.Fault != "" || v.Valid != (tc.want[i] == mcp.FormRan) {
				t.Errorf("%s: verdict %+v, want %s", tc.args[i], v, tc.want[i])
			}
		}
		for _, f := range tc.want {
			if forms[f] == 0 {
				t.Errorf("%v: forms %v lack %s", tc.args, forms, f)
			}
		}
		if calls.Load() != tc.calls {
			t.Errorf("%v: %d tools/call sent, want %d", tc.args, calls.Load(), tc.calls)
		}
	}
}

// TestModernSlowStdio: a modern stdio server that answers server/discover only after the probe
// gave up, and initialize with -32022, is still spoken to in 2026-07-28.
func TestModernSlowStdio(t *testing.T) {
	opts := fakeOptions(t, "modern-slow")
	opts.ProbeTimeout = 200 * time.Millisecond
	c := start(t, opts)
	if c.Protocol() != "2026-07-28" {
		t.Fatalf("protocol %q", c.Protocol())
	}
	rep, err := harness.Run(fakeserver.Tools[:1], c, harness.Options{Checks: 10, Seed: 1})
	if err != nil || !rep.Passed {
		t.Fatalf("%v %v", err, rep.Findings)
	}
}

// TestParamHeaders: over HTTP in 2026-07-28, an argument annotated with x-mcp-header goes in
// its Mcp-Param-* header too (base64 for a value that is not plain ASCII): the server finds
// every header matching its body, and nothing is refused for it.
func TestParamHeaders(t *testing.T) {
	c, fake, _ := startHTTP(t, "correct", fakeserver.HTTPOptions{ParamHeader: true}, mcp.Options{})
	rep, err := harness.Run([]tool.Tool{fakeserver.ParamTool}, c, harness.Options{Checks: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Blocking {
			t.Errorf("finding %v %s", f, f.Detail)
		}
	}
	if fake.ParamMatched.Load() == 0 || fake.ParamMismatched.Load() != 0 {
		t.Fatalf("Mcp-Param-Region: %d matched, %d did not", fake.ParamMatched.Load(), fake.ParamMismatched.Load())
	}
}
