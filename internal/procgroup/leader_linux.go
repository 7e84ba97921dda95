package procgroup

import (
	"os"
	"syscall"
	"unsafe"
)

// KillWhenLeaderExits waits, in a goroutine, for the child to exit without reaping it (its
// status stays for the owner's Wait), then kills what is left of its process group: a child
// it started that holds its pipes open, or would outlive the run.
func KillWhenLeaderExits(p *os.Process) {
	go func() {
		const pPID = 1 // idtype_t P_PID
		var info [128]byte
		for {
			_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(p.Pid),
				uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
			if errno == syscall.EINTR {
				continue
			}
			if errno == 0 {
				KillGroup(p.Pid)
			}
			return
		}
	}()
}
