// Package announce starts, for a test, a server process that announces its URL as the first line
// of its standard output.
package announce

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"
)

// URL starts cmd, kills it when t ends, and returns the first line it prints, trimmed; t fails
// when cmd cannot start or prints no line.
func URL(t testing.TB, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("%s printed no URL: %v", cmd, err)
	}
	return strings.TrimSpace(line)
}
