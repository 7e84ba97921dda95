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

// Kill kills the child's process group and the child.
func Kill(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
