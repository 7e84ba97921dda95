//go:build !unix

package stdio

import "os"

// processRunning says whether a process with this id exists.
func processRunning(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
