//go:build linux

// Command peak runs a command and writes its peak resident set, in kilobytes, to a file:
//
//	peak FILE COMMAND [ARG...]
//
// The command gets peak's standard input, output and error, and peak exits with its status.
// Linux counts in a process's peak the memory of the process that started it, up to its exec;
// peak is small, so the figure is the command's own peak within a few megabytes, where one read
// by a large process (a test binary) that starts the command itself would hold that process's
// memory too.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: peak FILE COMMAND [ARG...]")
		os.Exit(125)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		fmt.Fprintln(os.Stderr, "peak:", err)
		os.Exit(125)
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		fmt.Fprintln(os.Stderr, "peak: no resource usage for the command")
		os.Exit(125)
	}
	if err := os.WriteFile(os.Args[1], []byte(strconv.FormatInt(ru.Maxrss, 10)+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "peak:", err)
		os.Exit(125)
	}
	code := cmd.ProcessState.ExitCode()
	if code < 0 {
		code = 125 // ended by a signal
	}
	os.Exit(code)
}
