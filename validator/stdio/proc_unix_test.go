//go:build unix

package stdio

import "syscall"

// processRunning says whether a process with this id exists (a zombie included).
func processRunning(pid int) bool { return syscall.Kill(pid, 0) == nil }
