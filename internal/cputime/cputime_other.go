//go:build !unix

package cputime

// Self is the CPU time this process has used so far; ok is false where the system does not
// say, as here.
func Self() (Duration, bool) { return 0, false }

// Children is the CPU time used so far by ended child processes; unknown here.
func Children() (Duration, bool) { return 0, false }
