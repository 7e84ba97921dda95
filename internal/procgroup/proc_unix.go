//go:build unix

package procgroup

import (
	"os"
	"os/exec"
	"syscall"
)

// Set puts the child in a process group of its own, so that killing it also ends the
// processes it started (a shell or npx wrapper and the real validator).
func Set(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// KillGroup kills what is left of the process group of a child that has exited (and been
// waited for): processes it started that would outlive it, holding its pipes open.
func KillGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// Kill kills the child's process group and the child.
func Kill(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
