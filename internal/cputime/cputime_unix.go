//go:build unix

package cputime

import "syscall"

func usage(who int) (Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, false
	}
	return Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// Self is the CPU time this process has used so far (every thread, the collector's too); ok is
// false where the system does not say.
func Self() (Duration, bool) { return usage(syscall.RUSAGE_SELF) }

// Children is the CPU time used so far by the child processes that have ended and been
// waited for.
func Children() (Duration, bool) { return usage(syscall.RUSAGE_CHILDREN) }
