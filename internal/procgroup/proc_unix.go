//go:build unix

package procgroup

import (
	"os"
	"os/exec"
	"syscall"
)

// Set puts the child in a process group of its own, so that killing it also ends the
// processes it started (a shell or npx wrapper and the real validator), and tags it: its Tag's
// End ends what left the group too.
func Set(cmd *exec.Cmd) Tag {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return tag(cmd)
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
