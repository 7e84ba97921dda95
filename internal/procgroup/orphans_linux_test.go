package procgroup

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// sleepers are the live processes whose command line is "sleep token".
func sleepers(t *testing.T, token string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if strings.ReplaceAll(string(cmdline), "\x00", " ") == "sleep "+token+" " {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestEndKillsWhatLeftTheGroup: a process that starts `setsid sleep` (a session, so a process
// group, of its own) and exits leaves the sleep behind its group's kill; its Tag's End kills
// and reaps it, with toolproof the subreaper it was reparented to.
func TestEndKillsWhatLeftTheGroup(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Fatalf("setsid is needed: %v", err)
	}
	if err := BecomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	token := fmt.Sprintf("1000.%d", os.Getpid())
	t.Cleanup(func() {
		for _, pid := range sleepers(t, token) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	cmd := exec.Command("sh", "-c", "setsid sleep "+token+" </dev/null >/dev/null 2>&1 & echo started")
	tag := Set(cmd)
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != "started" {
		t.Fatalf("the validator: %q, %v", out, err)
	}
	for len(sleepers(t, token)) == 0 { // setsid calls setsid(2) before it execs sleep
	}
	KillGroup(cmd.Process.Pid)
	if n := len(sleepers(t, token)); n != 1 {
		t.Fatalf("%d sleeps outlive the group's kill, want 1 (the test would prove nothing)", n)
	}
	tag.End()
	if pids := sleepers(t, token); len(pids) > 0 {
		t.Fatalf("sleeps %v outlived End", pids)
	}
}
