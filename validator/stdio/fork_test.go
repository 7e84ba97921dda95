//go:build linux

package stdio

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/internal/needs"
	"github.com/toolproof/toolproof/validator"
)

// startForky starts testdata/forky.py, a Python adapter that offers a fork server, with the
// environment variables vars, behind the wrapper opts.Command if there is one; it returns the
// client and the file that counts its starts anew.
func startForky(t *testing.T, opts Options, vars ...string) (*Client, string, *syncBuffer) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("python3"); err != nil {
		why = "python3 is not on PATH"
	}
	needs.Met(t, "TOOLPROOF_REQUIRE_PYTHON", "the fork server tests", why)
	starts := filepath.Join(t.TempDir(), "starts")
	stderr := newSyncBuffer()
	opts.Command = append(opts.Command, "python3", filepath.Join("testdata", "forky.py")) // after a wrapper, if any
	opts.Env = append(os.Environ(), append([]string{"FORKY_STARTS=" + starts}, vars...)...)
	opts.Stderr = stderr
	c, err := Start(opts)
	if err != nil {
		t.Fatalf("Start: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() { c.Close() })
	return c, starts, stderr
}

// startsAnew counts the lines of the starts file: the processes started anew.
func startsAnew(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// oftenCrashes is the number of crashes crashOften causes: four show every process after the
// first forked (or, without a fork server, started anew) as well as forty would, at a tenth of
// the Python starts.
const oftenCrashes = 4

// crashOften checks 4×oftenCrashes calls one at a time, every fourth holding "~", and checks
// that exactly those crash, with the adapter's exit status.
func crashOften(t *testing.T, c *Client) {
	t.Helper()
	g := compile(t, c, readTool)
	for i := range 4 * oftenCrashes {
		args := fmt.Sprintf(`{"path":"p%d"}`, i)
		if i%4 == 1 {
			args = fmt.Sprintf(`{"path":"~%d"}`, i)
		}
		v := g.Check(context.Background(), []byte(args))
		switch {
		case i%4 == 1 && (v.Fault != validator.Crash || !strings.Contains(v.Detail, "exit status 3")):
			t.Errorf("call %d (%s) = %+v, want a crash with exit status 3", i, args, v)
		case i%4 != 1 && (v.Fault != "" || !v.Valid):
			t.Errorf("call %d (%s) = %+v, want valid", i, args, v)
		}
	}
}

// TestForkServerStartsProcesses: an adapter that dies on a call in four is started anew twice
// (its first process and its fork server); every process after them is forked, and the crashes
// are the same as when each is started anew.
func TestForkServerStartsProcesses(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	c, starts, stderr := startForky(t, Options{})
	crashOften(t, c)
	st := c.Stats()
	if n := startsAnew(t, starts); n != 2 {
		t.Errorf("%d processes started anew, want 2 (the first and the fork server)\nstderr:\n%s", n, stderr)
	}
	if st.Forks < oftenCrashes || st.Forks < st.Restarts {
		t.Errorf("%d forks for %d restarts and %d crashes: some processes were not forked", st.Forks,
			st.Restarts, oftenCrashes)
	}

	c, starts, _ = startForky(t, Options{}, "FORKY_NOFORK=1")
	crashOften(t, c)
	if n, st := startsAnew(t, starts), c.Stats(); n < oftenCrashes || st.Forks != 0 {
		t.Errorf("without a fork server offered: %d starts anew and %d forks", n, st.Forks)
	}
}

// TestForkServerThatFails: a fork server that exits at once, or refuses every request, is given
// up with a note, and processes are started anew; no call gets another verdict.
func TestForkServerThatFails(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	for _, how := range []string{"exit", "refuse"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			c, starts, stderr := startForky(t, Options{}, "FORKY_SERVER="+how)
			crashOften(t, c)
			if c.Stats().Forks != 0 || startsAnew(t, starts) < oftenCrashes {
				t.Errorf("%d forks, %d starts anew", c.Stats().Forks, startsAnew(t, starts))
			}
			if !strings.Contains(stderr.String(), "fork server failed") {
				t.Errorf("no note that the fork server failed:\n%s", stderr)
			}
		})
	}
}

// TestForkedProcessHangs: a forked process that stops answering is killed at its timeout, with
// its process group, and the next call is answered by another forked process.
func TestForkedProcessHangs(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	c, _, _ := startForky(t, Options{Timeout: 300 * time.Millisecond})
	g := compile(t, c, readTool)
	if v := g.Check(context.Background(), []byte(`{"path":"~"}`)); v.Fault != validator.Crash {
		t.Fatalf("~ = %+v, want a crash", v)
	}
	for i := range 3 {
		if v := g.Check(context.Background(), []byte(`{"path":"hang"}`)); v.Fault != validator.Timeout {
			t.Errorf("hang %d = %+v, want a timeout", i, v)
		}
	}
	if v := g.Check(context.Background(), []byte(`{"path":"a"}`)); !v.Valid {
		t.Errorf("after the hangs: %+v", v)
	}
	if c.Stats().Forks < 3 {
		t.Errorf("%d forks: the processes after the first crash were not forked", c.Stats().Forks)
	}
}

// TestForkServerLeavesNoProcess: Close ends the fork server and every process it forked, the
// hanging ones included.
func TestForkServerLeavesNoProcess(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	c, _, _ := startForky(t, Options{Timeout: 5 * time.Second})
	g := compile(t, c, readTool)
	g.Check(context.Background(), []byte(`{"path":"~"}`))
	g.Check(context.Background(), []byte(`{"path":"a"}`)) // on a forked process
	c.forks.mu.Lock()
	server := c.forks.server
	c.forks.mu.Unlock()
	if server == nil || c.Stats().Forks == 0 {
		t.Fatal("no fork server after a crash")
	}
	go g.Check(context.Background(), []byte(`{"path":"hang"}`))
	time.Sleep(50 * time.Millisecond) // the hang is sent, or not: either way Close ends it
	pids := append(waitChildren(t, c), server.cmd.Process.Pid)
	c.closeGrace = 100 * time.Millisecond
	c.Close()
	for _, pid := range pids {
		if processRunning(pid) {
			t.Errorf("process %d still runs after Close", pid)
		}
	}
}

// TestForkedProcessEndsAsStartedAnew: a forked process that ends by sys.exit(), by
// sys.exit("text") or by an exception nobody catches ends with the exit status and the stderr of
// a process started anew, so the crash details, and the report, are the same.
func TestForkedProcessEndsAsStartedAnew(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	details := func(vars ...string) ([]string, Stats) {
		c, _, _ := startForky(t, Options{}, vars...)
		g := compile(t, c, readTool)
		var out []string
		for _, path := range []string{"~", "quit", "bye", "boom"} {
			v := g.Check(context.Background(), []byte(`{"path":"`+path+`"}`))
			out = append(out, fmt.Sprintf("%s: %s: %s", path, v.Fault, v.Detail))
		}
		return out, c.Stats()
	}
	forked, st := details()
	anew, _ := details("FORKY_NOFORK=1")
	if st.Forks < 3 {
		t.Fatalf("%d forks: the calls after the first crash did not run on forked processes", st.Forks)
	}
	for i := range forked {
		if forked[i] != anew[i] {
			t.Errorf("forked:\n%s\nstarted anew:\n%s", forked[i], anew[i])
		}
	}
}

// TestForkServerThatStopsReporting: a fork server that forks but never says how its children
// end is given up once a child it forked is killed and no exit is reported within the limit;
// the call gets its crash, the processes it forked are killed, and later ones are started anew.
func TestForkServerThatStopsReporting(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	c, starts, stderr := startForky(t, Options{}, "FORKY_SERVER=mute")
	c.forks.limit = 300 * time.Millisecond
	g := compile(t, c, readTool)
	check := func(path string) validator.Verdict {
		t.Helper()
		done := make(chan validator.Verdict, 1)
		go func() { done <- g.Check(context.Background(), []byte(`{"path":"`+path+`"}`)) }()
		select {
		case v := <-done:
			return v
		case <-time.After(20 * time.Second):
			c.forks.mu.Lock()
			if fs := c.forks.server; fs != nil {
				fs.cmd.Process.Kill() // so that the client can be closed
			}
			c.forks.mu.Unlock()
			t.Fatalf("a call on %q got no verdict in 20s: the client waits for an exit report that never "+
				"comes\nstderr:\n%s", path, stderr)
			return validator.Verdict{}
		}
	}
	if v := check("~"); v.Fault != validator.Crash { // the first process, started anew
		t.Fatalf("~ = %+v, want a crash", v)
	}
	if v := check("~"); v.Fault != validator.Crash { // a forked one
		t.Fatalf("~ on a forked process = %+v, want a crash", v)
	}
	// The processes it forked are killed with it: a call on one of them crashes, saying so.
	valid := 0
	for i := 0; i < 10 && valid < 5; i++ {
		switch v := check(fmt.Sprintf("a%d", i)); {
		case v.Valid:
			valid++
		case valid > 0 || v.Fault != validator.Crash || !strings.Contains(v.Detail, "how it ended is not known"):
			t.Errorf("call %d after the server was given up = %+v", i, v)
		}
	}
	if valid < 5 {
		t.Errorf("%d valid calls of 10 after the server was given up", valid)
	}
	if !strings.Contains(stderr.String(), "fork server failed") {
		t.Errorf("no note that the fork server failed:\n%s", stderr)
	}
	if n := startsAnew(t, starts); n < 3 {
		t.Errorf("%d processes started anew: none after the server was given up", n)
	}
}

// TestForkFailureKeepsChildren: a fork server that cannot fork (an error answer) is used no
// more, but the processes it forked already go on serving: no call crashes for it.
func TestForkFailureKeepsChildren(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	c, starts, stderr := startForky(t, Options{}, "FORKY_SERVER=once")
	g := compile(t, c, readTool)
	if v := g.Check(context.Background(), []byte(`{"path":"~"}`)); v.Fault != validator.Crash {
		t.Fatalf("~ = %+v, want a crash", v)
	}
	// The restart is forked; the spare after it is refused, then started anew (the third start).
	deadline := time.Now().Add(20 * time.Second)
	for startsAnew(t, starts) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("no spare started anew after the refused fork\nstderr:\n%s", stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.forks.mu.Lock()
	server := c.forks.server
	c.forks.mu.Unlock()
	select {
	case <-server.exited:
		t.Errorf("the fork server was ended after one refused fork: the processes it forked died with it")
	default:
	}
	for i := range 10 {
		if v := g.Check(context.Background(), []byte(fmt.Sprintf(`{"path":"a%d"}`, i))); !v.Valid {
			t.Errorf("call %d = %+v, want valid", i, v)
		}
	}
	if st := c.Stats(); st.Restarts != 1 || st.Forks != 1 {
		t.Errorf("%d restarts and %d forks, want 1 and 1: a forked process died for the refused fork",
			st.Restarts, st.Forks)
	}
	if !strings.Contains(stderr.String(), "fork server failed") {
		t.Errorf("no note that the fork server failed:\n%s", stderr)
	}
}

// TestForkServerWithProcessesOfItsOwn: a fork server that started a process of its own says
// nothing of that process's exit (it is not one toolproof asked for), and goes on serving.
func TestForkServerWithProcessesOfItsOwn(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	c, _, stderr := startForky(t, Options{}, "FORKY_HELPER=1")
	crashOften(t, c)
	if st := c.Stats(); st.Forks < oftenCrashes || strings.Contains(stderr.String(), "fork server failed") {
		t.Errorf("%d forks; stderr:\n%s", st.Forks, stderr)
	}
}

// TestForkServerBehindAWrapper: a wrapper that does not pass descriptor 3 on leaves the adapter
// without its socket: it says so on stderr and exits, the server is given up with a note, and
// every process is started anew; no call gets another verdict.
func TestForkServerBehindAWrapper(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	wrapper := []string{"python3", "-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"}
	c, starts, stderr := startForky(t, Options{Command: wrapper})
	crashOften(t, c)
	if n, st := startsAnew(t, starts), c.Stats(); st.Forks != 0 || n < oftenCrashes {
		t.Errorf("%d forks, %d starts anew", st.Forks, n)
	}
	for _, note := range []string{"is not toolproof's socket",
		"fork server failed (the fork server exited (exit status 1))"} {
		if !strings.Contains(stderr.String(), note) {
			t.Errorf("no note %q:\n%s", note, stderr)
		}
	}
}

// TestCloseWhileForking: Close does not wait for the answer to a fork request in flight (here
// from a server that never answers) up to the limit: the restart that asked gives up at once.
func TestCloseWhileForking(t *testing.T) {
	t.Parallel() // its own processes: the fork tests wait on Python starts side by side
	c, _, _ := startForky(t, Options{}, "FORKY_SERVER=silent")
	c.forks.limit = 40 * time.Second
	g := compile(t, c, readTool)
	if v := g.Check(context.Background(), []byte(`{"path":"~"}`)); v.Fault != validator.Crash {
		t.Fatalf("~ = %+v, want a crash", v)
	}
	deadline := time.Now().Add(20 * time.Second)
	for asked := 0; asked == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no fork request in flight 20s after the crash")
		}
		time.Sleep(5 * time.Millisecond)
		c.forks.mu.Lock()
		if fs := c.forks.server; fs != nil {
			fs.mu.Lock()
			asked = len(fs.asked)
			fs.mu.Unlock()
		}
		c.forks.mu.Unlock()
	}
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Close still waits 20s later: it waits for the fork answer")
	}
}

// TestForkedChildLeavesNoOrphan: a forked child that starts a process in a session of its own
// (setsid) and dies leaves nothing behind once its exit is reported, while the fork server and
// the run go on: the fork request gives the child a tag of its own, which what it starts carries.
func TestForkedChildLeavesNoOrphan(t *testing.T) {
	t.Parallel()            // its own processes: the fork tests wait on Python starts side by side
	const token = "4019.25" // the sleep's seconds: its command line, found by pgrep
	orphans := func() []string {
		out, _ := exec.Command("pgrep", "-f", "^sleep "+token).Output()
		return strings.Fields(string(out))
	}
	t.Cleanup(func() { exec.Command("pkill", "-f", "^sleep "+token).Run() })
	c, _, _ := startForky(t, Options{Timeout: 5 * time.Second}, "FORKY_ORPHAN="+token)
	g := compile(t, c, readTool)
	g.Check(context.Background(), []byte(`{"path":"~"}`)) // the fork server starts after it
	if v := g.Check(context.Background(), []byte(`{"path":"orphan"}`)); v.Fault != validator.Crash {
		t.Fatalf("the call that starts a sleep and exits: %+v, want a crash", v)
	}
	if c.Stats().Forks == 0 {
		t.Fatal("no process was forked: the test shows nothing")
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(orphans()) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := orphans(); len(left) > 0 {
		t.Errorf("the sleep a forked child started in its own session still runs (pids %v) while the run goes on",
			left)
	}
	if v := g.Check(context.Background(), []byte(`{"path":"a"}`)); !v.Valid {
		t.Errorf("a call after it: %+v, want valid", v)
	}
}
