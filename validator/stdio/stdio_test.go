package stdio

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

var readTool = tool.Tool{
	Name:        "read",
	Description: "Read a file.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},` +
		`"limit":{"type":"integer"}}}`),
}

var writeTool = tool.Tool{Name: "write", Parameters: json.RawMessage("{\n  \"type\": \"object\"\n}")}

// startFake starts the fake adapter with behaviour and n; opts.Env adds variables (a state
// file, say).
func startFake(t testing.TB, behaviour string, n int, opts Options) (*Client, *syncBuffer) {
	t.Helper()
	stderr := newSyncBuffer()
	opts.Command = fakeCommand()
	opts.Env = fakeEnviron(append([]string{fakeEnv + "=" + behaviour, fmt.Sprintf("%s=%d", fakeNEnv, n)},
		opts.Env...)...)
	if opts.Stderr == nil {
		opts.Stderr = stderr
	}
	c, err := Start(opts)
	if err != nil {
		t.Fatalf("Start(%s): %v\nstderr:\n%s", behaviour, err, stderr)
	}
	t.Cleanup(func() { c.Close() })
	return c, stderr
}

func compile(t testing.TB, c *Client, tl tool.Tool) validator.BatchGate {
	t.Helper()
	g, err := c.Compile(tl)
	if err != nil {
		t.Fatalf("Compile(%s): %v", tl.Name, err)
	}
	bg, ok := g.(validator.BatchGate)
	if !ok {
		t.Fatalf("gate %T is not a BatchGate", g)
	}
	return bg
}

// expected is the verdict of the correct fake adapter.
func expected(args []byte) validator.Verdict {
	var v any
	if !json.Valid(args) {
		if !bytesValidUTF8(args) {
			return validator.Reject(validator.Issue{Message: "not UTF-8"})
		}
		return validator.Reject(validator.Issue{Message: "not JSON"})
	}
	json.Unmarshal(args, &v)
	if _, ok := v.(map[string]any); !ok {
		return validator.Reject(validator.Issue{Message: "root must be an object"})
	}
	return validator.Accept()
}

func bytesValidUTF8(b []byte) bool { return strings.ToValidUTF8(string(b), "\x00") == string(b) }

// cases makes n argument texts, valid and invalid.
func cases(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		switch i % 5 {
		case 0:
			out[i] = []byte(fmt.Sprintf(`{"path":"a","limit":%d}`, i))
		case 1:
			out[i] = []byte(fmt.Sprintf(`{"path":"a","limit":"%d"}`, i))
		case 2:
			out[i] = []byte(fmt.Sprintf(`{"path":"a\n\"%d\u2028"`, i)) // not JSON
		case 3:
			out[i] = []byte(fmt.Sprintf(`[%d]`, i))
		case 4:
			out[i] = []byte{'{', 0xff, byte(i)}
		}
	}
	return out
}

func checkAll(t *testing.T, args [][]byte, got []validator.Verdict, allowed func(i int, v validator.Verdict) bool) {
	t.Helper()
	if len(got) != len(args) {
		t.Fatalf("got %d verdicts for %d cases", len(got), len(args))
	}
	bad := 0
	for i, v := range got {
		if allowed != nil && allowed(i, v) {
			continue
		}
		if d := cmp.Diff(expected(args[i]), v); d != "" {
			if bad++; bad <= 5 {
				t.Errorf("case %d (%q): verdict (-want +got):\n%s", i, args[i], d)
			}
		}
	}
	if bad > 5 {
		t.Errorf("... %d wrong verdicts in all", bad)
	}
}

// hammer sends c's two tools 4*60 single checks and 8*300 batched ones from twelve goroutines at
// once, checks every verdict, and returns c's stats after.
func hammer(t *testing.T, c *Client) Stats {
	t.Helper()
	gates := []validator.BatchGate{compile(t, c, readTool), compile(t, c, writeTool)}
	args := cases(300)
	var wg sync.WaitGroup
	for w := range 12 {
		wg.Go(func() {
			g := gates[w%2]
			if w%3 == 0 {
				for _, a := range args[:60] {
					if d := cmp.Diff(expected(a), g.Check(context.Background(), a)); d != "" {
						t.Errorf("Check(%q) (-want +got):\n%s", a, d)
					}
				}
				return
			}
			checkAll(t, args, g.CheckBatch(context.Background(), args), nil)
		})
	}
	wg.Wait()
	s := checkStats(t, c)
	return s
}

func checkStats(t *testing.T, c *Client) Stats {
	t.Helper()
	s := c.Stats()
	if s.Requests != s.Verdicts+s.Crashes+s.Timeouts+s.ProtocolErrors {
		t.Errorf("stats do not add up: %+v", s)
	}
	return s
}

// checkCorrect checks c, the fake adapter in the correct mode: its name, n cases in one batch and
// the first k of them alone, each with its expected verdict, and stats that count them all. It
// returns the gate of readTool.
func checkCorrect(t *testing.T, c *Client, n, k int) validator.BatchGate {
	t.Helper()
	if got := c.Name(); got != "fake 1.0" {
		t.Errorf("Name() = %q", got)
	}
	g := compile(t, c, readTool)
	args := cases(n)
	checkAll(t, args, g.CheckBatch(context.Background(), args), nil)
	for _, a := range args[:k] {
		if d := cmp.Diff(expected(a), g.Check(context.Background(), a)); d != "" {
			t.Errorf("Check(%q) (-want +got):\n%s", a, d)
		}
	}
	s := checkStats(t, c)
	if want := int64(n + k); s.Requests != want || s.Verdicts != want || s.Restarts != 0 || s.StrayLines != 0 {
		t.Errorf("stats %+v, want %d requests and verdicts", s, want)
	}
	return g
}

// checkClosed closes c and checks that g then answers with a crash that says c is closed.
func checkClosed(t *testing.T, c *Client, g validator.Gate) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	v := g.Check(context.Background(), []byte(`{}`))
	if v.Fault != validator.Crash || !strings.Contains(v.Detail, "closed") {
		t.Errorf("Check after Close = %+v", v)
	}
}

func TestCorrect(t *testing.T) {
	c, stderr := startFake(t, "correct", 0, Options{})
	g := checkCorrect(t, c, 500, 10)
	if got := g.CheckBatch(context.Background(), nil); len(got) != 0 {
		t.Errorf("CheckBatch(nil) = %v", got)
	}
	if s := c.Stats(); s.Requests != 510 {
		t.Errorf("CheckBatch(nil) made requests: stats %+v", s)
	}
	if !strings.Contains(stderr.String(), "fake adapter: ready") {
		t.Errorf("child's stderr not passed through: %q", stderr)
	}
	checkClosed(t, c, g)
	if _, err := c.Compile(writeTool); err == nil {
		t.Errorf("Compile after Close: no error")
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestNameOverride(t *testing.T) {
	c, _ := startFake(t, "correct", 0, Options{Name: "mine 2"})
	if got := c.Name(); got != "mine 2" {
		t.Errorf("Name() = %q", got)
	}
}

func TestOutOfOrder(t *testing.T) {
	c, _ := startFake(t, "reverse", 8, Options{})
	g := compile(t, c, readTool)
	args := cases(1000)
	checkAll(t, args, g.CheckBatch(context.Background(), args), nil)
	checkStats(t, c)
}

func TestConcurrent(t *testing.T) {
	c, _ := startFake(t, "reverse", 5, Options{Window: 16})
	s := hammer(t, c)
	if s.Verdicts != 4*60+8*300 {
		t.Errorf("stats %+v", s)
	}
}

func TestCrash(t *testing.T) {
	const k = 30
	c, stderr := startFake(t, "crash", k, Options{})
	read, write := compile(t, c, readTool), compile(t, c, writeTool)
	isCrash := func(v validator.Verdict) bool {
		return v.Fault == validator.Crash && strings.Contains(v.Detail, "exit status 3") &&
			strings.Contains(v.Detail, "fake adapter: crashing on request 30")
	}

	// One at a time: exactly the k-th request of each child crashes.
	args := cases(2*k + 5)
	for i, a := range args {
		g := read
		if i%2 == 1 {
			g = write // both tools must be registered again on the new child
		}
		v := g.Check(context.Background(), a)
		if i == k-1 || i == 2*k-1 {
			if !isCrash(v) {
				t.Errorf("case %d: want a crash with exit status and stderr, got %+v", i, v)
			}
			continue
		}
		if d := cmp.Diff(expected(a), v); d != "" {
			t.Errorf("case %d: (-want +got):\n%s", i, d)
		}
	}
	if s := c.Stats(); s.Restarts != 2 || s.Crashes != 2 {
		t.Errorf("stats %+v", s)
	}

	// Pipelined: every request in flight at a crash crashes; all others are right.
	args = cases(500)
	got := read.CheckBatch(context.Background(), args)
	crashes := 0
	checkAll(t, args, got, func(i int, v validator.Verdict) bool {
		if isCrash(v) {
			crashes++
			return true
		}
		return false
	})
	if crashes == 0 {
		t.Errorf("no crash in 500 pipelined requests")
	}
	// Later requests succeed on a restarted child (at most one of k in a row crashes).
	ok := 0
	for _, a := range cases(3) {
		if v := read.Check(context.Background(), a); v.Fault == "" {
			ok++
		}
	}
	if ok < 2 {
		t.Errorf("only %d of 3 requests after the crashes succeeded", ok)
	}
	if !strings.Contains(stderr.String(), "crashing on request") {
		t.Errorf("stderr not passed through")
	}
	checkStats(t, c)
}

// TestRestartWaitsForTheSpare: a death while the warm spare is still starting is served by
// that spare when it is ready, not by a process started cold beside it (which would be further
// from ready). Every start but the first takes 300 ms; the state file logs starts and calls.
func TestRestartWaitsForTheSpare(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	stderr := newSyncBuffer()
	c, err := Start(Options{Command: fakeCommand(), Stderr: stderr,
		Env: fakeEnviron(fakeEnv+"=slowdieon", fakeNEnv+"=300", fakeState+"="+state)})
	if err != nil {
		t.Fatalf("Start: %v\n%s", err, stderr)
	}
	defer c.Close()
	g := compile(t, c, readTool)
	die := []byte(`{"die":1}`)
	// The first death: a restart with no spare yet starts the second process, whose install
	// starts the third as the spare. The second death comes at once, while the spare starts.
	for i := 0; i < 2; i++ {
		if v := g.Check(context.Background(), die); v.Fault != validator.Crash {
			t.Fatalf("death %d: %+v, want a crash", i+1, v)
		}
	}
	if v := g.Check(context.Background(), []byte(`{"path":"a"}`)); v.Fault != "" || !v.Valid {
		t.Fatalf("the call after the deaths: %+v", v)
	}
	// The serving spare's install starts the next spares (two, since the restart found none
	// ready): four starts at least, whichever way the restart went (a client without spares
	// would start three). Starts are logged when ready.
	var starts []string
	served := ""
	for deadline := time.Now().Add(10 * time.Second); len(starts) < 4 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		log, err := os.ReadFile(state + ".log")
		if err != nil {
			t.Fatal(err)
		}
		starts, served = nil, ""
		for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
			what, pid, _ := strings.Cut(line, " ")
			switch what {
			case "start":
				starts = append(starts, pid)
			case "serve":
				served = pid
			}
		}
	}
	if len(starts) < 4 || served != starts[2] {
		t.Errorf("the call after the second death was served by process %s; want the third ready, the spare that was "+
			"starting (starts %v)", served, starts)
	}
}

func TestRestartFails(t *testing.T) {
	state := filepath.Join(t.TempDir(), "started")
	stderr := newSyncBuffer()
	c, err := Start(Options{
		Command: fakeCommand(),
		Env:     fakeEnviron(fakeEnv+"=restartfails", fakeNEnv+"=5", fakeState+"="+state),
		Stderr:  stderr,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g := compile(t, c, readTool)
	args := cases(40)
	for i := range args {
		args[i] = []byte(`{"path":"a"}`)
	}
	got := g.CheckBatch(context.Background(), args)
	for i, v := range got {
		switch {
		case i < 4:
			if v.Fault != "" || !v.Valid {
				t.Errorf("case %d: %+v", i, v)
			}
		case v.Fault != validator.Crash:
			t.Errorf("case %d: want crash, got %+v", i, v)
		}
	}
	v := g.Check(context.Background(), args[0])
	if v.Fault != validator.Crash || !strings.Contains(v.Detail, "could not be restarted") ||
		!strings.Contains(v.Detail, "refusing to start again") {
		t.Errorf("Check after a failed restart = %+v", v)
	}
	if _, err := c.Compile(writeTool); err == nil || !strings.Contains(err.Error(), "could not be restarted") {
		t.Errorf("Compile after a failed restart: %v", err)
	}
	checkStats(t, c)
}

// checkHangs checks n cases through g, of which cases 37 and other hang: those two must time out
// after 200ms, each restarting its process, and every other case must get its verdict.
func checkHangs(t *testing.T, c *Client, g validator.BatchGate, n, other int) {
	t.Helper()
	args := cases(n)
	hangs := map[int]bool{37: true, other: true}
	for i := range hangs {
		args[i] = []byte(hangText)
	}
	start := time.Now()
	got := g.CheckBatch(context.Background(), args)
	t.Logf("%d cases, 2 hangs, %d processes: %v", n, max(c.opts.Processes, 1), time.Since(start))
	checkAll(t, args, got, func(i int, v validator.Verdict) bool {
		if hangs[i] {
			if v.Fault != validator.Timeout || !strings.Contains(v.Detail, "200ms") {
				t.Errorf("case %d: want timeout, got %+v", i, v)
			}
			return true
		}
		return false
	})
	if s := checkStats(t, c); s.Timeouts != 2 || s.Restarts != 2 {
		t.Errorf("stats %+v", s)
	}
}

func TestHang(t *testing.T) {
	c, _ := startFake(t, "hang", 0, Options{Timeout: 200 * time.Millisecond})
	g := compile(t, c, readTool)
	checkHangs(t, c, g, 150, 110)
	if v := g.Check(context.Background(), []byte(hangText)); v.Fault != validator.Timeout {
		t.Errorf("Check(hang) = %+v", v)
	}
	if v := g.Check(context.Background(), []byte(`{"path":"b"}`)); v.Fault != "" || !v.Valid {
		t.Errorf("Check after timeouts = %+v", v)
	}
}

// cancelledBatch checks 200 cases on g, the 21st of which hangs, under a context that ends after
// 150 ms, and returns the cases, their verdicts and the ended context. The batch must end within
// 5 s of it, half the 10 s timeout it would wait for if the context were not heeded.
func cancelledBatch(t *testing.T, g validator.BatchGate) ([][]byte, []validator.Verdict, context.Context) {
	t.Helper()
	args := cases(200)
	args[20] = []byte(hangText)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	t.Cleanup(cancel)
	start := time.Now()
	got := g.CheckBatch(ctx, args)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancelled CheckBatch took %v", d)
	}
	return args, got, ctx
}

func TestCancel(t *testing.T) {
	c, _ := startFake(t, "hang", 0, Options{Timeout: 10 * time.Second})
	g := compile(t, c, readTool)
	args, got, ctx := cancelledBatch(t, g)
	checkAll(t, args, got, func(i int, v validator.Verdict) bool {
		if i < 20 && v.Fault == validator.Timeout && v.Detail == "cancelled" {
			return true // a very slow machine
		}
		if i >= 20 {
			if v.Fault != validator.Timeout || v.Detail != "cancelled" {
				t.Errorf("case %d: want cancelled, got %+v", i, v)
			}
			return true
		}
		return false
	})
	// A context that has ended already: every case cancelled at once.
	for _, v := range g.CheckBatch(ctx, args[:3]) {
		if v.Fault != validator.Timeout || v.Detail != "cancelled" {
			t.Errorf("with an ended context: %+v", v)
		}
	}
	checkStats(t, c)
	start := time.Now()
	c.Close()
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("Close took %v", d)
	}
}

func TestGarbage(t *testing.T) {
	c, stderr := startFake(t, "garbage", 0, Options{})
	g := compile(t, c, readTool)
	args := cases(300)
	bad := map[int]string{
		7:   `"bad":"novalid"`,
		50:  `"bad":"error"`,
		120: `"bad":"notbool"`,
		200: `"bad":"issues"`,
		250: `"bad":"broken"`,
	}
	want := map[int]string{
		7:   `without "valid"`,
		50:  "failed on this request: internal adapter failure: boom",
		120: "not a boolean",
		200: "not an array",
		250: "not JSON",
	}
	for i, b := range bad {
		args[i] = []byte("{" + b + "}")
	}
	got := g.CheckBatch(context.Background(), args)
	checkAll(t, args, got, func(i int, v validator.Verdict) bool {
		if w, ok := want[i]; ok {
			if v.Fault != validator.ProtocolError || !strings.Contains(v.Detail, w) {
				t.Errorf("case %d: want protocol_error %q, got %+v", i, w, v)
			}
			return true
		}
		return false
	})
	s := checkStats(t, c)
	if s.ProtocolErrors != 5 || s.StrayLines < 100 || s.Restarts != 0 {
		t.Errorf("stats %+v", s)
	}
	log := stderr.String()
	for _, w := range []string{"not JSON", "unknown id", "not a JSON object", "without a usable id",
		`unknown op "bogus"`, "further ignored lines"} {
		if !strings.Contains(log, w) {
			t.Errorf("stderr lacks %q:\n%s", w, log)
		}
	}
}

func TestPartialWrites(t *testing.T) {
	c, _ := startFake(t, "partial", 0, Options{})
	g := compile(t, c, readTool)
	args := cases(200)
	checkAll(t, args, g.CheckBatch(context.Background(), args), nil)
}

func TestRefuse(t *testing.T) {
	c, _ := startFake(t, "correct", 0, Options{})
	_, err := c.Compile(tool.Tool{Name: "refuse-me", Parameters: json.RawMessage(`{}`)})
	var r *RefusedError
	if !errors.As(err, &r) || r.Tool != "refuse-me" || r.Reason != "schema does not compile: nope" {
		t.Fatalf("Compile(refuse-me) = %v", err)
	}
	g := compile(t, c, readTool)
	if v := g.Check(context.Background(), []byte(`{}`)); !v.Valid || v.Fault != "" {
		t.Errorf("Check = %+v", v)
	}
	if _, err := c.Compile(tool.Tool{Name: "x", Parameters: json.RawMessage(`{`)}); err == nil {
		t.Errorf("Compile with parameters that are not JSON: no error")
	}
}

func TestValue(t *testing.T) {
	c, _ := startFake(t, "value", 0, Options{})
	g := compile(t, c, readTool)
	got := g.CheckBatch(context.Background(), [][]byte{
		[]byte(`{"path":"a","limit":"5","big":"123456789012345678901234567890.50"}`),
		[]byte(`{"path":"a","limit":5}`),
	})
	want := []validator.Verdict{
		validator.AcceptValue(map[string]any{"path": "a", "limit": json.Number("5"),
			"big": json.Number("123456789012345678901234567890.50")}),
		validator.Accept(),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestLargeArguments(t *testing.T) {
	c, _ := startFake(t, "digest", 0, Options{Timeout: time.Minute}) // slow under -race
	g := compile(t, c, readTool)
	var big bytes.Buffer
	big.WriteString(`{"data":"`)
	for big.Len() < 10<<20 {
		big.WriteString(`abc \"quoted\" \\ é 😀 \n` + "\u2028\u2029\t\x01")
	}
	big.WriteString(`"}`)
	args := [][]byte{big.Bytes(), {0xff, 0xfe, '{', 0}, []byte("line\nbreak\r\"\\\u2028"),
		bytes.Repeat([]byte{0xc3}, 3<<20)}
	got := g.CheckBatch(context.Background(), args)
	for i, a := range args {
		sum := sha256.Sum256(a)
		want := validator.AcceptValue(map[string]any{"len": json.Number(fmt.Sprint(len(a))),
			"sha256": hex.EncodeToString(sum[:]), "base64": !bytesValidUTF8(a)})
		if d := cmp.Diff(want, got[i]); d != "" {
			t.Errorf("case %d (%d bytes): (-want +got):\n%s", i, len(a), d)
		}
	}
}

func TestStartErrors(t *testing.T) {
	for _, tc := range []struct {
		behaviour string
		want      []string
	}{
		{"badhello", []string{"TestHelperProcess", `protocol "toolproof/2"`, `"toolproof/1"`}},
		{"nohello", []string{"TestHelperProcess", "exit status 1", "fake adapter: cannot start"}},
	} {
		_, err := Start(Options{Command: fakeCommand(), Stderr: newSyncBuffer(),
			Env: fakeEnviron(fakeEnv + "=" + tc.behaviour)})
		if err == nil {
			t.Errorf("%s: no error", tc.behaviour)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.behaviour, err, w)
			}
		}
	}
	if _, err := Start(Options{Command: []string{"/nonexistent/validator"}}); err == nil {
		t.Errorf("missing command: no error")
	}
	if _, err := Start(Options{}); err == nil {
		t.Errorf("no command: no error")
	}
}

func TestClosedStdout(t *testing.T) {
	c, _ := startFake(t, "closeout", 3, Options{})
	g := compile(t, c, readTool)
	for i := 0; i < 5; i++ {
		v := g.Check(context.Background(), []byte(`{}`))
		if i == 2 {
			if v.Fault != validator.Crash || !strings.Contains(v.Detail, "closed its stdout") {
				t.Errorf("case %d: want crash, got %+v", i, v)
			}
		} else if !v.Valid || v.Fault != "" {
			t.Errorf("case %d: %+v", i, v)
		}
	}
}

// TestReplacedWhenStdoutEnds: a child is replaced the moment its stdout ends, not once it has
// exited. A call made while the child that closed its stdout still runs goes to the next child
// and gets its verdict; only the call that child had been sent waits for the cause (a kill after
// exitGrace) and ends with Crash.
func TestReplacedWhenStdoutEnds(t *testing.T) {
	c, _ := startFake(t, "closeoutone", 1,
		Options{Env: []string{fakeState + "=" + filepath.Join(t.TempDir(), "state")}})
	g := compile(t, c, readTool)
	first := c.procs[0].cur
	cut := make(chan validator.Verdict, 1)
	go func() { cut <- g.Check(context.Background(), []byte(`{}`)) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		replaced := c.procs[0].cur != first
		c.mu.Unlock()
		if replaced {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child that closed its stdout is still the current one after 10s")
		}
	}
	select {
	case <-first.exited:
		t.Fatal("the child that closed its stdout was replaced only once it had exited (killed after exitGrace): the " +
			"restart waited for the exit")
	default:
	}
	if v := g.Check(context.Background(), []byte(`{"path":"a"}`)); !v.Valid || v.Fault != "" {
		t.Errorf("a call made after the stdout ended, before the process exited: %+v, want valid", v)
	}
	if v := <-cut; v.Fault != validator.Crash || !strings.Contains(v.Detail, "closed its stdout and was killed") {
		t.Errorf("the call that was cut short: %+v, want a crash whose detail says the process closed its stdout and "+
			"was killed", v)
	}
}

func TestCloseKillsStubbornChild(t *testing.T) {
	t.Parallel() // its own process: it waits out a close grace
	c, _ := startFake(t, "stubborn", 0, Options{})
	c.closeGrace = time.Second // shorter than the constant; the rule is the same
	start := time.Now()
	err := c.Close()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Close = %v", err)
	}
	// Close waits the grace out before it kills (a lower bound only: the machine may be slow).
	if d := time.Since(start); d < c.closeGrace-100*time.Millisecond {
		t.Errorf("Close took %v: it killed before its grace of %v was out", d, c.closeGrace)
	}
}

// TestCloseKillsASilentChild: a child that has answered nothing for its timeout since it was
// last written to is killed by Close at once, not after the close grace.
func TestCloseKillsASilentChild(t *testing.T) {
	c, _ := startFake(t, "stuck", 0, Options{Timeout: 300 * time.Millisecond})
	c.closeGrace = time.Hour
	g := compile(t, c, readTool)
	go g.Check(context.Background(), []byte(hangText))
	for c.Stats().Requests == 0 {
		time.Sleep(time.Millisecond)
	}
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "had answered nothing for 300ms") {
			t.Errorf("Close = %v, want the silent child killed", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Close still waits 30s later: it waits the grace out for a child that stopped answering")
	}
}

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"node adapters/ajv.mjs", []string{"node", "adapters/ajv.mjs"}},
		{"  a\tb\n c  ", []string{"a", "b", "c"}},
		{`python3 -m "my adapter" 'it''s' x\ y`, []string{"python3", "-m", "my adapter", "its", "x y"}},
		{`a "b\"c\\d\e$" 'e\f'`, []string{"a", `b"c\d\e$`, `e\f`}},
		{`a "" ''`, []string{"a", "", ""}},
		{`pre"mid"'post' z`, []string{"premidpost", "z"}},
		{"a \\\nb", []string{"a", "b"}},
		{`é "ü ö"`, []string{"é", "ü ö"}},
	} {
		got, err := ParseCommand(tc.in)
		if err != nil {
			t.Errorf("ParseCommand(%q): %v", tc.in, err)
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("ParseCommand(%q) (-want +got):\n%s", tc.in, d)
		}
	}
	for _, in := range []string{"", "   ", `a "b`, `a 'b`, `a\`} {
		if got, err := ParseCommand(in); err == nil {
			t.Errorf("ParseCommand(%q) = %q, want an error", in, got)
		}
	}
}

// TestSpareWhoseStdoutEndedIsNotInstalled: a warm spare whose stdout has ended (it keeps
// running) is out of service at once, as a current child is: the next restart does not make it
// current, and a call made after that restart gets its verdict.
func TestSpareWhoseStdoutEndedIsNotInstalled(t *testing.T) {
	c, _ := startFake(t, "sparecloseout", 1,
		Options{Env: []string{fakeState + "=" + filepath.Join(t.TempDir(), "state")}})
	g := compile(t, c, readTool)
	p := c.procs[0]
	// The first process closes its stdout on its first call; the second one is started and the
	// third, the spare, closes its stdout right after hello.
	if v := g.Check(context.Background(), []byte(`{}`)); v.Fault != validator.Crash {
		t.Fatalf("first call: %+v, want crash", v)
	}
	var second *child
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		ready := len(p.spares) > 0 && p.cur != nil
		second = p.cur
		c.mu.Unlock()
		if ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no spare after 10s")
		}
	}
	c.mu.Lock()
	spare := p.spares[0]
	c.mu.Unlock()
	select {
	case <-spare.readerDone: // the spare's stdout has ended, and its reader has seen it
	case <-time.After(10 * time.Second):
		t.Fatal("the spare's stdout did not end within 10s")
	}
	go g.Check(context.Background(), []byte(`{}`)) // the second process closes its stdout
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		replaced := p.cur != nil && p.cur != second
		c.mu.Unlock()
		if replaced {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second process was not replaced after 10s")
		}
	}
	if v := g.Check(context.Background(), []byte(`{"path":"a"}`)); !v.Valid || v.Fault != "" {
		t.Errorf("a call made after the restart: %+v, want valid (the spare whose stdout had ended was made current)",
			v)
	}
}

// TestStartErrorLeavesOutShownLines: the error of a process that died before answering hello
// quotes the last lines of its stderr but those Options.StderrShown says the user saw as they
// came (an adapter's own one-line reason would otherwise be printed twice, one under the other).
func TestStartErrorLeavesOutShownLines(t *testing.T) {
	script := `echo "toolproof fake: cannot start, do this" >&2; echo "a stack line" >&2; exit 2`
	for _, tc := range []struct {
		shown     func(string) bool
		want, not string
	}{
		{nil, "toolproof fake: cannot start, do this\na stack line", ""},
		{func(l string) bool { return strings.HasPrefix(l, "toolproof ") },
			"(exit status 2); last lines of its stderr:\na stack line", "stderr:\ntoolproof fake"},
		{func(string) bool { return true }, "ended (exit status 2)", "last lines"},
	} {
		_, err := Start(Options{Command: []string{"sh", "-c", script}, Stderr: newSyncBuffer(),
			StderrShown: tc.shown})
		if err == nil || !strings.Contains(err.Error(), tc.want) ||
			(tc.not != "" && strings.Contains(err.Error(), tc.not)) {
			t.Errorf("error %v: want %q, without %q", err, tc.want, tc.not)
		}
	}
}
