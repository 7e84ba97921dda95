//go:build !unix

package mcp

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

func killProcess(p *os.Process) { _ = p.Kill() }
