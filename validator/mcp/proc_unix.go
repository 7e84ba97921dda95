//go:build unix

package mcp

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup puts the child in a process group of its own, so that killing it also ends
// the processes it started (a shell or npx wrapper and the real validator).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcess kills the child's process group and the child.
func killProcess(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
