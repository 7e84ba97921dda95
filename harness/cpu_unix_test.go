//go:build unix

package harness

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used so far (every thread, the collector's too):
// steadier than wall time on a machine that is busy with other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
