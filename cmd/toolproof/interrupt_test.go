//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// toolproofBinary builds this command once, for the tests that run it as a process of its own.
func toolproofBinary(t testing.TB) string {
	t.Helper()
	return goBuild(t, "toolproof", ".")
}

// alive reports whether pid is a process that has not ended (a zombie has ended).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: trust kill
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// pidsIn reads the pids the test adapter wrote with -spawn.
func pidsIn(t *testing.T, file string) []int {
	b, _ := os.ReadFile(file)
	return pidList(string(b))
}

// linesIn counts the lines of the file at path (0 when it does not exist yet).
func linesIn(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

// pidList reads the pids in text, apart by white space.
func pidList(text string) []int {
	var pids []int
	for _, f := range strings.Fields(text) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// killOrphans kills pids, validator processes that outlived toolproof, and fails t naming them.
func killOrphans(t *testing.T, pids []int) {
	t.Helper()
	if len(pids) == 0 {
		return
	}
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	t.Errorf("%d validator processes outlived toolproof: %v", len(pids), pids)
}

// TestInterruptedRunWritesItsReport: SIGINT or SIGTERM to a running toolproof stops the run,
// writes the report of what was checked (marked interrupted, exit status 3) and leaves no
// validator process behind, not even one the validator started in its process group.
func TestInterruptedRunWritesItsReport(t *testing.T) {
	t.Parallel() // the built command in processes of its own
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pids")
			callFile := filepath.Join(t.TempDir(), "calls")
			cmd := exec.Command(toolproofBinary(t), "run", "--validator",
				execSpec(t, "-strict", "-sleep", "2ms", "-spawn", pidFile, "-log-calls", callFile),
				"--processes", "2", "--checks", "1000", "--seed", "1", "--format", "json")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			for deadline := time.Now().Add(time.Minute); len(pidsIn(t,
				pidFile)) < 4; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the validator processes did not start\n%s", stderr.String())
				}
			}
			for deadline := time.Now().Add(time.Minute); linesIn(callFile) < 200; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) { // some cases answered, whatever the machine's load
					t.Fatalf("the validator answered no 200 calls in a minute\n%s", stderr.String())
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("still running a minute after %v\n%s", sig, stderr.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
				t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, stderr.String())
			}
			var doc struct {
				Reports []struct {
					Passed      bool   `json:"passed"`
					Tools       int    `json:"tools"`
					Cases       int    `json:"cases"`
					Interrupted string `json:"interrupted"`
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || len(doc.Reports) != 1 {
				t.Fatalf("no JSON report: %v\n%s\n%s", err, stdout.String(), stderr.String())
			}
			rep := doc.Reports[0]
			if rep.Passed || rep.Cases == 0 ||
				!strings.Contains(rep.Interrupted, "interrupted by "+strings.ToUpper(sigName(sig))) {
				t.Errorf("report: passed %v, %d tools, %d cases, interrupted %q", rep.Passed, rep.Tools,
					rep.Cases, rep.Interrupted)
			}
			var orphans []int
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				orphans = orphans[:0]
				for _, pid := range pidsIn(t, pidFile) {
					if alive(pid) {
						orphans = append(orphans, pid)
					}
				}
				if len(orphans) == 0 || time.Now().After(deadline) {
					break
				}
			}
			killOrphans(t, orphans)
		})
	}
}

func sigName(sig syscall.Signal) string {
	if sig == syscall.SIGINT {
		return "sigint"
	}
	return "sigterm"
}

// interruptedReport returns the one JSON report of the interrupted run r: its case count and why
// it was interrupted.
func interruptedReport(t *testing.T, r result) (rep struct {
	Cases       int    `json:"cases"`
	Interrupted string `json:"interrupted"`
}) {
	t.Helper()
	if r.code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", r.code, exitInterrupted, clip(r.stderr))
	}
	var doc struct{ Reports []json.RawMessage }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Reports) != 1 {
		t.Fatalf("no JSON report: %v\n%s", err, clip(r.stdout))
	}
	if err := json.Unmarshal(doc.Reports[0], &rep); err != nil {
		t.Fatalf("the JSON report: %v\n%s", err, clip(r.stdout))
	}
	return rep
}

// TestMaxTimeStopsTheRun: --max-time stops a run on purpose, as a signal does.
func TestMaxTimeStopsTheRun(t *testing.T) {
	r := cli(t, "run", "--validator", execSpec(t, "-strict", "-sleep", "1ms"), "--checks", "1000", "--seed", "1",
		"--max-time", "500ms", "--format", "json")
	if rep := interruptedReport(t, r); rep.Cases == 0 || !strings.Contains(rep.Interrupted, "--max-time 500ms") {
		t.Errorf("%d cases, interrupted %q", rep.Cases, rep.Interrupted)
	}
}

// TestSilentValidatorEndsTheRun: a validator that answers hello and then nothing ends the run
// after harness.MaxSilentCalls timeouts in a row (each followed by a restart), with the report
// so far and exit status 3, instead of costing every case its timeout.
func TestSilentValidatorEndsTheRun(t *testing.T) {
	t.Parallel()
	r := cli(t, "run", "--validator", execSpec(t, "-strict", "-sleep", "1h"), "--timeout", "200ms", "--checks", "50",
		"--seed", "1", "--format", "json")
	if rep := interruptedReport(t, r); !strings.Contains(rep.Interrupted, "the validator stopped answering") {
		t.Errorf("interrupted %q", rep.Interrupted)
	}
}

// TestStoppedAnsweringSameReport: a validator that never answers a call holding "~" (and
// answers every other) stops the run at the same place every time: three runs of one seed,
// with one job, two, and two processes, give byte-identical JSON reports, the tool it stopped
// on, the checks judged and the tools left out included. Which calls get no verdict is decided
// by their text alone, so the runs differ only in the order the calls reach the processes.
func TestStoppedAnsweringSameReport(t *testing.T) {
	t.Parallel()
	spec := execSpec(t, "-strict", "-hang-on", "~")
	configs := [][]string{{"--jobs", "1"}, {"--jobs", "2"}, {"--jobs", "2", "--processes", "2"}}
	// The three runs share their rapid settings, so they go on side by side; each waits out
	// its own silent calls.
	results := make([]result, len(configs))
	var wg sync.WaitGroup
	for i, extra := range configs {
		// Three classes that keep the text of the valid value: a draw is four calls, and one
		// whose valid value holds "~" is four calls in a row with no verdict, which end the run.
		args := append([]string{"run", "--validator", spec, "--tool", "calendar_create_event", "--tool", "create_chart",
			"--tool", "create_org_chart", "--mutators", "hallucinated_key,wrapper_nesting,malformed_json",
			"--timeout", "2s", "--checks", "5", "--seed", "1", "--format", "json"}, extra...)
		wg.Go(func() { results[i] = cli(t, args...) })
	}
	wg.Wait()
	for i, r := range results {
		extra := strings.Join(configs[i], " ")
		if rep := interruptedReport(t, r); !strings.Contains(rep.Interrupted, "the validator stopped answering") {
			t.Fatalf("%s: interrupted %q", extra, rep.Interrupted)
		}
		if i > 0 && r.stdout != results[0].stdout {
			t.Errorf("%s: the report differs from the one with --jobs 1 (-want +got):\n%s", extra,
				cmp.Diff(results[0].stdout, r.stdout))
		}
	}
}
