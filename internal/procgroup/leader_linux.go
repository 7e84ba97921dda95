package procgroup

import (
	"os"
	"syscall"
	"unsafe"
)

// KillWhenLeaderExits waits, in a goroutine, for the child to exit without reaping it (its
// status stays for the owner's Wait), then kills what is left of its process group and ends
// what carries its tag t: a child it started that holds its pipes open, or would outlive the run.
func KillWhenLeaderExits(p *os.Process, t Tag) {
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
				t.End() // the leader, a zombie until its Wait, carries no environment: not reaped here
			}
			return
		}
	}()
}
