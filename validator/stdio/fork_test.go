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
// environment variables vars; it returns the client and the file that counts its starts anew.
func startForky(t *testing.T, opts Options, vars ...string) (*Client, string, *syncBuffer) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("python3"); err != nil {
		why = "python3 is not on PATH"
	}
	needs.Met(t, "TOOLPROOF_REQUIRE_PYTHON", "the fork server tests", why)
	starts := filepath.Join(t.TempDir(), "starts")
	stderr := newSyncBuffer()
	opts.Command = []string{"python3", filepath.Join("testdata", "forky.py")}
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

// crashOften checks 40 calls one at a time, every fourth holding "~", and checks that exactly
// those crash, with the adapter's exit status.
func crashOften(t *testing.T, c *Client) {
	t.Helper()
	g := compile(t, c, readTool)
	for i := range 40 {
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
	c, starts, stderr := startForky(t, Options{})
	crashOften(t, c)
	st := c.Stats()
	if n := startsAnew(t, starts); n != 2 {
		t.Errorf("%d processes started anew, want 2 (the first and the fork server)\nstderr:\n%s", n, stderr)
	}
	if st.Forks < 10 || st.Forks < st.Restarts {
		t.Errorf("%d forks for %d restarts and 10 crashes: some processes were not forked", st.Forks, st.Restarts)
	}

	c, starts, _ = startForky(t, Options{}, "FORKY_NOFORK=1")
	crashOften(t, c)
	if n, st := startsAnew(t, starts), c.Stats(); n < 10 || st.Forks != 0 {
		t.Errorf("without a fork server offered: %d starts anew and %d forks", n, st.Forks)
	}
}

// TestForkServerThatFails: a fork server that exits at once, or refuses every request, is given
// up with a note, and processes are started anew; no call gets another verdict.
func TestForkServerThatFails(t *testing.T) {
	for _, how := range []string{"exit", "refuse"} {
		t.Run(how, func(t *testing.T) {
			c, starts, stderr := startForky(t, Options{}, "FORKY_SERVER="+how)
			crashOften(t, c)
			if c.Stats().Forks != 0 || startsAnew(t, starts) < 10 {
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
