//go:build !unix

// Package procgroup starts validator processes so that they can be ended whole: a child in a process
// group of its own, killed with everything it started.
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
