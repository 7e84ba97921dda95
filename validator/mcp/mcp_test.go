package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
	"github.com/toolproof/toolproof/validator/tool"
)

func TestStartFailsClearly(t *testing.T) {
	for _, tc := range []struct {
		mode, want string
	}{
		{"hang-init", "no answer to initialize within 500ms"},
		{"garbage", "this is not JSON-RPC"},
		{"no-tools", "lists no tools"},
		{"bad-version", `speaks MCP "1999-01-01"`},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			opts := fakeOptions(t, tc.mode)
			opts.StartTimeout = 500 * time.Millisecond
			begin := time.Now()
			c, err := mcp.Start(opts)
			if err == nil {
				c.Close()
				t.Fatalf("Start succeeded on a %s server", tc.mode)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
			if d := time.Since(begin); d > 5*time.Second {
				t.Fatalf("Start took %v to fail", d)
			}
		})
	}
	t.Run("exits at once", func(t *testing.T) {
		_, err := mcp.Start(mcp.Options{Command: []string{"sh", "-c", "echo 'no server here' >&2; exit 4"},
			Stderr: io.Discard})
		if err == nil || !strings.Contains(err.Error(), "ended before answering initialize") ||
			!strings.Contains(err.Error(), "no server here") {
			t.Fatalf("error %v does not say that the server ended and what it wrote", err)
		}
	})
}

func TestPagingAndVersions(t *testing.T) {
	c := start(t, fakeOptions(t, "paged"))
	tools, err := c.Tools()
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != len(fakeserver.Tools) || tools[0].Name != "set_alarm" || tools[1].Name != "send_note" {
		t.Fatalf("paged tools/list gave %v", tools)
	}
	if got := c.Protocol(); got != "2025-11-25" {
		t.Fatalf("protocol %q", got)
	}
	if c.Name() != "mcp:fake-paged 0.1" {
		t.Fatalf("name %q", c.Name())
	}
	old := start(t, fakeOptions(t, "old"))
	if got := old.Protocol(); got != "2025-03-26" {
		t.Fatalf("an old server's protocol is %q", got)
	}
}

func TestToolFilters(t *testing.T) {
	opts := fakeOptions(t, "correct")
	opts.Skip = []string{"send_note"}
	c := start(t, opts)
	tools, _ := c.Tools()
	if len(tools) != 1 || tools[0].Name != "set_alarm" {
		t.Fatalf("--skip-tool send_note left %v", tools)
	}
	if _, err := c.Compile(fakeserver.Tools[1]); err == nil || !strings.Contains(err.Error(), "skip-tool") {
		t.Fatalf("Compile of a skipped tool: %v", err)
	}
	if _, err := c.Compile(tool.Tool{Name: "rm_rf", Parameters: []byte(`{"type":"object"}`)}); err == nil ||
		!strings.Contains(err.Error(), "does not list") {
		t.Fatalf("Compile of an unlisted tool: %v", err)
	}
	other := fakeserver.Tools[0]
	other.Parameters = []byte(`{"type":"object","properties":{"hour":{"type":"integer"}}}`)
	if _, err := c.Compile(other); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(c.Notes(), "\n"), `the schema the cases come from differs`) {
		t.Fatalf("no note on the differing schema: %q", c.Notes())
	}
	opts = fakeOptions(t, "correct")
	opts.Only = []string{"nope"}
	if _, err := mcp.Start(opts); err == nil || !strings.Contains(err.Error(), "--tool nope") {
		t.Fatalf("--tool of an unlisted tool: %v", err)
	}
}

func TestCrashAndHangMidBatch(t *testing.T) {
	opts := fakeOptions(t, "crash")
	opts.Timeout = 700 * time.Millisecond
	opts.Window = 8
	c := start(t, opts)
	g, err := c.Compile(fakeserver.Tools[0])
	if err != nil {
		t.Fatal(err)
	}
	var args [][]byte
	want := map[int]string{}
	for i := 0; i < 40; i++ {
		switch {
		case i == 7 || i == 23:
			args = append(args, []byte(`{"hour":1,"label":"boom"}`))
			want[i] = "crash"
		case i == 15:
			args = append(args, []byte(`{"hour":1,"label":"sleep"}`))
			want[i] = "timeout"
		case i%3 == 0:
			args = append(args, []byte(fmt.Sprintf(`{"hour":%d}`, 24+i)))
			want[i] = "rejected"
		default:
			args = append(args, []byte(fmt.Sprintf(`{"hour":%d}`, i%24)))
			want[i] = "accepted"
		}
	}
	vs := g.(validator.BatchGate).CheckBatch(context.Background(), args)
	if len(vs) != len(args) {
		t.Fatalf("%d verdicts for %d calls", len(vs), len(args))
	}
	for i, v := range vs {
		got := "accepted"
		switch {
		case v.Fault != "":
			got = string(v.Fault)
		case v.Unclear || v.NotSent:
			got = "other: " + v.Detail
		case !v.Valid:
			got = "rejected"
		}
		if got != want[i] {
			t.Errorf("call %d %s: got %s (%s), want %s", i, args[i], got, v.Detail, want[i])
		}
	}
	if !strings.Contains(strings.Join(c.Notes(), "\n"), "restarted") {
		t.Errorf("notes do not mention restarts: %q", c.Notes())
	}
}

func TestNotSentAndRawSplice(t *testing.T) {
	// An in-memory server that passes on every call it gets.
	got := make(chan string, 10)
	dial := pipeServer("echo", func(w io.Writer, msg string) {
		got <- msg
		fmt.Fprintln(w, emptyResult(msg))
	})
	c := start(t, mcp.Options{Dial: dial, Stderr: io.Discard, ProbeTimeout: 100 * time.Millisecond})
	g, err := c.Compile(tool.Tool{Name: "t", Parameters: []byte(`{"type":"object"}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`{"a":1,}`, `{"a":NaN}`, "\xef\xbb\xbf{}", `{"a":"\xff"}`, `{} {}`, ``} {
		if v := g.Check(context.Background(), []byte(bad)); !v.NotSent {
			t.Errorf("%q was sent (verdict %+v)", bad, v)
		}
	}
	for _, raw := range []string{`{"a":1,"a":2}`, `[1,2]`, `"text"`, `{"n":1e400,"m":123456789012345678901234567890}`} {
		v := g.Check(context.Background(), []byte(raw))
		if v.NotSent || !v.Valid {
			t.Fatalf("%s: verdict %+v", raw, v)
		}
		msg := <-got
		if !strings.Contains(msg, `"arguments":`+raw+`}`) {
			t.Errorf("%s was not sent as written: %s", raw, msg)
		}
	}
	g.Check(context.Background(), []byte("{\n  \"a\": [1,\n 2]\n}"))
	if msg := <-got; !strings.Contains(msg, `"arguments":{"a":[1,2]}`) {
		t.Errorf("multi-line arguments were not put on one line: %s", msg)
	}
}

// TestHarnessCatchesLenientServer runs the harness on the planted-lenient fake: it must find
// the stringified integer and the stripped key executed, and the argument values repeated.
func TestHarnessCatchesLenientServer(t *testing.T) {
	c := start(t, fakeOptions(t, "lenient"))
	rep, err := harness.Run(fakeserver.Tools, c, harness.Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed {
		t.Fatal("the lenient server passed")
	}
	found := map[string]bool{}
	for _, f := range rep.Findings {
		found[string(f.Class)+" "+string(f.Kind)] = true
	}
	for _, want := range []string{"stringified_type missed", "hallucinated_key missed"} {
		if !found[want] {
			t.Errorf("no %s finding; findings: %v", want, rep.Findings)
		}
	}
	leak := false
	for k := range found {
		leak = leak || strings.HasSuffix(k, " leak")
	}
	if !leak {
		t.Errorf("no leak finding; findings: %v", rep.Findings)
	}
	if st := rep.Classes["malformed_json"]; st == nil || st.NotApplicable == 0 {
		t.Errorf("malformed_json cases were not counted as not applicable: %+v", st)
	}
}

// TestHarnessPassesCorrectServer: a correct gate, answering in either form, has no blocking
// finding, and the forms are counted.
func TestHarnessPassesCorrectServer(t *testing.T) {
	for _, tc := range []struct{ mode, form string }{
		{"correct", "rejected: isError, TypeScript SDK wording"},
		{"correct-rpc", mcp.FormRPCInvalidParams},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			c := start(t, fakeOptions(t, tc.mode))
			rep, err := harness.Run(fakeserver.Tools, c, harness.Options{Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Findings {
				if f.Blocking {
					t.Errorf("finding on a correct server: %v %s", f, f.Detail)
				}
			}
			forms := c.Forms()
			if forms[tc.form] == 0 || forms[mcp.FormRan] == 0 {
				t.Errorf("forms %v: want rejections as %q and plain results", forms, tc.form)
			}
			for k := range forms {
				if strings.HasPrefix(k, "unclear") {
					t.Errorf("unclear answers from a correct server: %v", forms)
				}
			}
		})
	}
}

// TestHarnessUnclear: a server whose tools fail after the gate answers every call it lets
// through with an isError text in its own words. A valid call owes a success, so the valid
// cases are a false_reject showing the text, not counted unclear besides (the note still counts
// the answers and names the patterns). --ran-pattern says the tool ran: no finding.
func TestHarnessUnclear(t *testing.T) {
	c := start(t, fakeOptions(t, "ran-error"))
	rep, err := harness.Run(fakeserver.Tools[:1], c, harness.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed || len(rep.Findings) != 1 {
		t.Fatalf("findings %v, want the one false_reject", rep.Findings)
	}
	if f := rep.Findings[0]; f.Kind != report.FalseReject || f.Class != "valid" || !f.Blocking ||
		f.Detail != "isError: upstream service refused the API key" {
		t.Fatalf("finding %v, detail %q", f, f.Detail)
	}
	if st := rep.Classes["valid"]; st == nil || st.Unclear != 0 || st.Failed == 0 {
		t.Errorf("valid cases: %+v, want failed and none counted unclear", st)
	}
	if c.Forms()[mcp.FormUnclearIsError] == 0 || !strings.Contains(strings.Join(c.Notes(), "\n"), "--ran-pattern") {
		t.Fatalf("forms %v, notes %q", c.Forms(), c.Notes())
	}
	opts := fakeOptions(t, "ran-error")
	opts.Wording.Ran = regexp.MustCompile(`upstream service`)
	c2 := start(t, opts)
	rep2, err := harness.Run(fakeserver.Tools[:1], c2, harness.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f := c2.Forms(); !rep2.Passed || f[mcp.FormRanPattern] == 0 || f[mcp.FormUnclearIsError] != 0 {
		t.Fatalf("with --ran-pattern: findings %v, forms %v", rep2.Findings, f)
	}
}

// TestRestartFails: when the server crashes and cannot be started again, every call still gets
// a verdict at once: a crash that says why.
func TestRestartFails(t *testing.T) {
	opts := fakeOptions(t, "crash")
	opts.Env = append(opts.Env, "TOOLPROOF_FAKE_MCP_ONCE="+filepath.Join(t.TempDir(), "started"))
	c := start(t, opts)
	g, err := c.Compile(fakeserver.Tools[0])
	if err != nil {
		t.Fatal(err)
	}
	args := [][]byte{[]byte(`{"hour":1,"label":"boom"}`)}
	for i := 0; i < 20; i++ {
		args = append(args, []byte(`{"hour":2}`))
	}
	begin := time.Now()
	vs := g.(validator.BatchGate).CheckBatch(context.Background(), args)
	if d := time.Since(begin); d > 10*time.Second {
		t.Fatalf("the batch took %v", d)
	}
	restartFailures := 0
	for i, v := range vs {
		if v.Fault == "" && !v.Valid {
			t.Errorf("call %d: %+v", i, v)
		}
		if v.Fault == validator.Crash && strings.Contains(v.Detail, "refusing to start again") {
			restartFailures++
		}
	}
	if vs[0].Fault != validator.Crash || restartFailures == 0 {
		t.Fatalf("verdicts %+v: want crashes that say the restart failed", vs)
	}
}

// TestListBounds: a server that pages forever, lists too many tools or one huge message ends
// Start with an error naming the bound; a tool whose schema is over mcp.MaxSchemaSize is left
// out with the reason and the others are tested.
func TestListBounds(t *testing.T) {
	for _, tc := range []struct{ mode, want string }{
		{"endless", "still has more pages after 1000 (mcp.MaxPages)"},
		{"many-tools", "more than 10000 tools (mcp.MaxTools)"},
		{"huge-line", "mcp.MaxMessageSize"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			c, err := mcp.Start(fakeOptions(t, tc.mode))
			if err == nil {
				c.Close()
				t.Fatal("Start succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
		})
	}
	c := start(t, fakeOptions(t, "huge-schema"))
	tools, _ := c.Tools()
	if len(tools) != len(fakeserver.Tools) {
		t.Fatalf("tools %v, want the fake server's own", tools)
	}
	if _, err := c.Compile(tool.Tool{Name: "huge", Parameters: json.RawMessage(`{"type":"object"}`)}); err == nil ||
		!strings.Contains(err.Error(), "mcp.MaxSchemaSize") {
		t.Fatalf("Compile of the huge tool: %v", err)
	}
	if notes := strings.Join(c.Notes(), "\n"); !strings.Contains(notes,
		`tool "huge" left out: it has an inputSchema of`) {
		t.Errorf("notes do not name the huge tool:\n%s", notes)
	}
}
