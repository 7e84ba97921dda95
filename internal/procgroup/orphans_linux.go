package procgroup

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER (linux/prctl.h).
const prSetChildSubreaper = 36

// BecomeSubreaper makes the calling process the subreaper of its descendants: a process whose
// parent dies is reparented to it rather than to init, so that End can reap it. It is a
// setting of the whole process: a command sets it once, at start; a library never does.
func BecomeSubreaper() error {
	_, _, errno := syscall.Syscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if errno != 0 {
		return os.NewSyscallError("prctl PR_SET_CHILD_SUBREAPER", errno)
	}
	return nil
}

// endRounds bound how long End waits for a killed process to be reparented to it and reaped.
const (
	endRounds = 50
	endPause  = 2 * time.Millisecond
)

// End kills every process that carries t (the tagged process's descendants, in whatever group
// or session), and reaps those that are, or become, children of this process (the subreaper's
// orphans). Call it once the tagged process has exited: a zombie has no environment to carry
// the tag, so its status stays for its own Wait.
func (t Tag) End() {
	if t.entry == "" {
		return
	}
	killed := map[int]bool{}
	for round := 0; round < endRounds; round++ {
		for _, pid := range t.carriers() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			killed[pid] = true
		}
		for pid := range killed {
			if reaped(pid) {
				delete(killed, pid)
			}
		}
		if len(killed) == 0 {
			return
		}
		time.Sleep(endPause)
	}
}

// carriers are the processes whose environment holds t (readable for this process's user
// only: another user's process cannot be one this process started).
func (t Tag) carriers() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	want := []byte(t.entry)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// reaped reports whether the killed process pid is gone: reaped here when it is a child of
// this process, else gone from /proc; false while it lives or is another's zombie.
func reaped(pid int) bool {
	ppid, ok := parentOf(pid)
	if !ok {
		return true
	}
	if ppid != os.Getpid() {
		return false
	}
	var status syscall.WaitStatus
	got, err := syscall.Wait4(pid, &status, syscall.WNOHANG, nil)
	return got == pid || err == syscall.ECHILD
}

// parentOf is the parent of pid, read from /proc/PID/stat; false when there is no such process.
func parentOf(pid int) (int, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(fields[1]))
	return ppid, err == nil
}
