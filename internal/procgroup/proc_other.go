//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

// Set does nothing where there are no process groups.
func Set(*exec.Cmd) {}

// KillGroup does nothing where there are no process groups.
func KillGroup(int) {}

// Kill kills the child.
func Kill(p *os.Process) { _ = p.Kill() }
