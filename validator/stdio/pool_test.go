package stdio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// pidOf is the process id a "pid" or "crashone" fake adapter put in an accepting verdict.
func pidOf(t *testing.T, v validator.Verdict) string {
	t.Helper()
	m, ok := v.Value.(map[string]any)
	if !v.Valid || v.Fault != "" || !v.HasValue || !ok {
		t.Fatalf("not a verdict with a pid: %+v", v)
	}
	return fmt.Sprint(m["pid"])
}

// childPIDs are the process ids of the current children of c.
func childPIDs(c *Client) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var pids []int
	for _, p := range c.procs {
		if p.cur != nil {
			pids = append(pids, p.cur.proc.pid())
		}
	}
	return pids
}

// waitChildren waits until all processes of c have a running child (restarts are done).
func waitChildren(t *testing.T, c *Client) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := childPIDs(c)
		if len(pids) == len(c.procs) {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d processes running after 10s", len(pids), len(c.procs))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestPoolCorrect(t *testing.T) {
	for _, procs := range []int{2, 3} {
		t.Run(fmt.Sprint(procs), func(t *testing.T) {
			c, _ := startFake(t, "correct", 0, Options{Processes: procs, Window: 8})
			if n := len(childPIDs(c)); n != procs {
				t.Fatalf("%d children running, want %d", n, procs)
			}
			checkClosed(t, c, checkCorrect(t, c, 2000, 20))
		})
	}
}

// TestPoolSpreads checks that every process gets a fair share of a batch.
func TestPoolSpreads(t *testing.T) {
	const procs, n = 3, 3000
	c, _ := startFake(t, "pid", 0, Options{Processes: procs, Window: 16})
	g := compile(t, c, readTool)
	args := make([][]byte, n)
	for i := range args {
		args[i] = []byte(`{}`)
	}
	seen := map[string]int{}
	for _, v := range g.CheckBatch(context.Background(), args) {
		seen[pidOf(t, v)]++
	}
	if len(seen) != procs {
		t.Fatalf("answers came from %d processes, want %d: %v", len(seen), procs, seen)
	}
	for pid, k := range seen {
		if k < n/procs/10 { // a tenth of its share: a process the machine's load slows still takes some
			t.Errorf("process %s answered only %d of %d cases: %v", pid, k, n, seen)
		}
	}
}

// TestPoolWindow checks that no process ever has more than Window requests in flight, while
// several batches compete for the window.
func TestPoolWindow(t *testing.T) {
	const procs, window = 3, 4
	c, _ := startFake(t, "reverse", 3, Options{Processes: procs, Window: window})
	g := compile(t, c, readTool)
	stop := make(chan struct{})
	var bad []string
	most := 0 // the highest load seen
	var watcher sync.WaitGroup
	watcher.Go(func() {
		for {
			c.mu.Lock()
			total := 0
			for _, p := range c.procs {
				total += p.load
				most = max(most, p.load)
				if p.load > window || p.load < 0 {
					bad = append(bad, fmt.Sprintf("process %d has %d requests", p.index, p.load))
				}
			}
			if total > c.inflight || c.inflight > procs*window {
				bad = append(bad, fmt.Sprintf("%d requests given, %d slots taken", total, c.inflight))
			}
			c.mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	})
	args := cases(400)
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() { checkAll(t, args, g.CheckBatch(context.Background(), args), nil) })
	}
	wg.Wait()
	close(stop)
	watcher.Wait()
	if len(bad) > 0 {
		t.Errorf("%d violations, first: %s", len(bad), bad[0])
	}
	if most == 0 {
		t.Errorf("the watcher never saw a request in flight")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.procs {
		if p.load != 0 {
			t.Errorf("process %d: load %d after all batches", p.index, p.load)
		}
	}
	if c.inflight != 0 || len(c.waiters) != 0 || len(c.pending) != 0 {
		t.Errorf("after all batches: %d slots taken, %d waiters, %d pending", c.inflight,
			len(c.waiters), len(c.pending))
	}
}

func TestPoolConcurrent(t *testing.T) {
	c, _ := startFake(t, "reverse", 5, Options{Processes: 2, Window: 8})
	s := hammer(t, c)
	if s.Verdicts != 4*60+8*300 || s.Restarts != 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestPoolCrash crashes one of two processes in the middle of a batch: the cases it had read
// crash, the other process goes on, the crashed one is restarted with both tools.
func TestPoolCrash(t *testing.T) {
	// k is within the first window, which the process that crashes always gets, however the
	// machine schedules the two.
	const k, window = 5, 8
	stderr := newSyncBuffer()
	c, err := Start(Options{
		Command: fakeCommand(),
		Env: fakeEnviron(fakeEnv+"=crashone", fmt.Sprintf("%s=%d", fakeNEnv, k),
			fakeState+"="+filepath.Join(t.TempDir(), "first")),
		Processes: 2,
		Window:    window,
		Stderr:    stderr,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	read, write := compile(t, c, readTool), compile(t, c, writeTool)
	before := childPIDs(c)
	args := cases(600)
	got := read.CheckBatch(context.Background(), args)
	crashes := 0
	pids := map[string]int{}
	for i, v := range got {
		if v.Fault == validator.Crash {
			crashes++
			if !strings.Contains(v.Detail, "exit status 3") ||
				!strings.Contains(v.Detail, fmt.Sprintf("crashing on request %d", k)) {
				t.Errorf("case %d: crash without exit status or stderr: %+v", i, v)
			}
			continue
		}
		pids[pidOf(t, v)]++
	}
	if crashes < 1 || crashes > window {
		t.Errorf("%d crashes, want between 1 and the window of one process (%d)", crashes, window)
	}
	after := waitChildren(t, c)
	survivor, restarted := 0, 0
	for _, pid := range after {
		for _, b := range before {
			if pid == b {
				survivor = pid
			}
		}
		if pid != before[0] && pid != before[1] {
			restarted = pid
		}
	}
	if survivor == 0 || restarted == 0 {
		t.Fatalf("children before %v, after %v: want one survivor and one new", before, after)
	}
	// The survivor went on (how far depends on how the machine schedules the two processes
	// and the restart), and the crashed one answered nothing after its death.
	if pids[fmt.Sprint(survivor)] < window {
		t.Errorf("the surviving process answered %d cases: %v", pids[fmt.Sprint(survivor)], pids)
	}
	for pid, n := range pids {
		if pid != fmt.Sprint(survivor) && pid != fmt.Sprint(restarted) && n >= k {
			t.Errorf("the crashed process %s answered %d cases, but it dies at request %d: %v", pid, n, k, pids)
		}
	}
	// The restarted child has both tools again.
	for _, g := range []validator.BatchGate{read, write} {
		seen := map[string]bool{}
		for _, v := range g.CheckBatch(context.Background(), args[:100]) {
			seen[pidOf(t, v)] = true
		}
		if !seen[fmt.Sprint(restarted)] || !seen[fmt.Sprint(survivor)] {
			t.Errorf("after the restart, answers came from %v, want %d and %d", seen, survivor, restarted)
		}
	}
	s := checkStats(t, c)
	if s.Restarts != 1 || s.Crashes != int64(crashes) {
		t.Errorf("stats %+v, %d crashes", s, crashes)
	}
}

// TestPoolHang hangs one process on each hang case: that case times out, the process is
// restarted, and every other case gets its verdict.
func TestPoolHang(t *testing.T) {
	c, _ := startFake(t, "hang", 0, Options{Processes: 2, Timeout: 200 * time.Millisecond, Window: 8})
	g := compile(t, c, readTool)
	checkHangs(t, c, g, 300, 210)

	// While one process hangs, the other one answers: 20 checks end before the hang's
	// timeout, which is long enough (3 s) that no load on the machine makes them wait for it.
	c, _ = startFake(t, "hang", 0, Options{Processes: 2, Timeout: 3 * time.Second, Window: 8})
	g = compile(t, c, readTool)
	waitChildren(t, c)
	done := make(chan validator.Verdict, 1)
	go func() { done <- g.Check(context.Background(), []byte(hangText)) }()
	time.Sleep(20 * time.Millisecond)
	for i := 0; i < 20; i++ {
		if v := g.Check(context.Background(), []byte(`{"path":"b"}`)); v.Fault != "" || !v.Valid {
			t.Errorf("Check during a hang = %+v", v)
		}
	}
	select {
	case v := <-done:
		t.Errorf("the hang ended (%+v) before 20 checks beside it: the other process did not take them", v)
	default:
	}
	if v := <-done; v.Fault != validator.Timeout {
		t.Errorf("Check(hang) = %+v", v)
	}
}

func TestPoolRefuse(t *testing.T) {
	c, _ := startFake(t, "correct", 0, Options{Processes: 3})
	_, err := c.Compile(tool.Tool{Name: "refuse-me", Parameters: json.RawMessage(`{}`)})
	var r *RefusedError
	if !errors.As(err, &r) || r.Tool != "refuse-me" || r.Reason != "schema does not compile: nope" {
		t.Fatalf("Compile(refuse-me) = %v", err)
	}
	g := compile(t, c, readTool)
	args := cases(100)
	checkAll(t, args, g.CheckBatch(context.Background(), args), nil)
}

// TestPoolRefuseOne: a tool refused by one process is refused.
func TestPoolRefuseOne(t *testing.T) {
	c, _ := startFake(t, "refuseone", 0,
		Options{Processes: 2, Env: []string{fakeState + "=" + filepath.Join(t.TempDir(), "first")}})
	_, err := c.Compile(tool.Tool{Name: "maybe", Parameters: json.RawMessage(`{}`)})
	var r *RefusedError
	if !errors.As(err, &r) || r.Tool != "maybe" {
		t.Fatalf("Compile(maybe) = %v", err)
	}
	g := compile(t, c, readTool)
	args := cases(100)
	checkAll(t, args, g.CheckBatch(context.Background(), args), nil)
}

// TestPoolRestartFails: when a process cannot be restarted, the whole client fails.
func TestPoolRestartFails(t *testing.T) {
	c, _ := startFake(t, "restartfails", 5, Options{Processes: 2,
		Env: []string{fakeStarts + "=2", fakeState + "=" + filepath.Join(t.TempDir(), "started")}})
	g := compile(t, c, readTool)
	args := make([][]byte, 200)
	for i := range args {
		args[i] = []byte(`{"path":"a"}`)
	}
	got := g.CheckBatch(context.Background(), args)
	ok := 0
	for i, v := range got {
		switch {
		case v.Fault == "" && v.Valid:
			ok++
		case v.Fault != validator.Crash:
			t.Errorf("case %d: want a verdict or a crash, got %+v", i, v)
		}
	}
	if ok < 4 || ok > 8 {
		t.Errorf("%d cases answered; want the 4 before each process crashed, at most", ok)
	}
	v := g.Check(context.Background(), args[0])
	if v.Fault != validator.Crash || !strings.Contains(v.Detail, "could not be restarted") {
		t.Errorf("Check after a failed restart = %+v", v)
	}
	if _, err := c.Compile(writeTool); err == nil || !strings.Contains(err.Error(), "could not be restarted") {
		t.Errorf("Compile after a failed restart: %v", err)
	}
	checkStats(t, c)
}

func TestPoolStartFails(t *testing.T) {
	_, err := Start(Options{Command: fakeCommand(), Stderr: newSyncBuffer(), Processes: 3,
		Env: fakeEnviron(fakeEnv + "=nohello")})
	if err == nil || !strings.Contains(err.Error(), "exit status 1") || !strings.Contains(err.Error(), "of 3") {
		t.Errorf("Start = %v", err)
	}
}

// TestPoolClose: Close ends every process, and kills the ones that do not exit.
func TestPoolClose(t *testing.T) {
	t.Parallel() // its own processes: it waits out a close grace
	c, _ := startFake(t, "correct", 0, Options{Processes: 3})
	pids := childPIDs(c)
	if len(pids) != 3 {
		t.Fatalf("children %v", pids)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	for _, pid := range pids {
		if processRunning(pid) {
			t.Errorf("process %d still running after Close", pid)
		}
	}

	c, _ = startFake(t, "stubborn", 0, Options{Processes: 2})
	pids = childPIDs(c)
	c.closeGrace = time.Second // shorter than the constant; the rule is the same
	start := time.Now()
	err := c.Close()
	if err == nil || strings.Count(err.Error(), "killed") != 2 {
		t.Errorf("Close = %v", err)
	}
	// Close waits the grace out before it kills (a lower bound only: the machine may be slow).
	if d := time.Since(start); d < c.closeGrace-100*time.Millisecond {
		t.Errorf("Close took %v: it killed before its grace of %v was out", d, c.closeGrace)
	}
	for _, pid := range pids {
		if processRunning(pid) {
			t.Errorf("process %d still running after Close", pid)
		}
	}
}

func TestPoolCancel(t *testing.T) {
	c, _ := startFake(t, "hang", 0, Options{Processes: 2, Timeout: 10 * time.Second, Window: 8})
	args, got, _ := cancelledBatch(t, compile(t, c, readTool))
	cancelled := 0
	checkAll(t, args, got, func(i int, v validator.Verdict) bool {
		if v.Fault == validator.Timeout && v.Detail == "cancelled" {
			cancelled++
			return true
		}
		return false
	})
	if cancelled == 0 || got[20].Fault != validator.Timeout {
		t.Errorf("%d cancelled; case 20: %+v", cancelled, got[20])
	}
	checkStats(t, c)
}
