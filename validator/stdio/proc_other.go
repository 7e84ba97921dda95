//go:build !unix

package stdio

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

func killProcess(p *os.Process) { _ = p.Kill() }
