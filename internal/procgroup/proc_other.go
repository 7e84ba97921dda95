//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

// Set tags the child (there are no process groups here).
func Set(cmd *exec.Cmd) Tag { return tag(cmd) }

// KillGroup does nothing where there are no process groups.
func KillGroup(int) {}

// Kill kills the child.
func Kill(p *os.Process) { _ = p.Kill() }
