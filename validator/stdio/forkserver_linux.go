package stdio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/toolproof/toolproof/internal/procgroup"
)

// forkServer is a process of the validator's command started with forkEnv set: it answers
// fork requests on a socket of its own (descriptor 3), each carrying the three pipe ends of a
// new child, by forking a child that serves toolproof/1 on them, and says when each child
// exits and how (PROTOCOL.md, "Fork server").
type forkServer struct {
	cmd    *exec.Cmd
	conn   *net.UnixConn
	exited chan struct{} // closed when the server process has been waited for
	// limit bounds the wait for the answer to a fork request, and for the report of the exit
	// of a child killed: a server that keeps either waiting longer is given up.
	limit time.Duration

	mu     sync.Mutex
	next   uint64
	asked  map[uint64]chan forkReply // fork requests not answered yet
	forked map[int]*forkedProcess    // children that have not exited yet, by pid
	ended  error                     // set when the server can no longer be used
}

type forkReply struct {
	p   *forkedProcess
	err error
}

// forkMessage is a message of the server: forked (id, and pid or error) or exited (pid, and
// code or signal).
type forkMessage struct {
	Op     string `json:"op"`
	ID     uint64 `json:"id"`
	Pid    int    `json:"pid"`
	Error  string `json:"error"`
	Code   int    `json:"code"`
	Signal int    `json:"signal"`
	Core   bool   `json:"core"`
}

// startForkServer starts the command of opts as a fork server; its stderr goes to stderr. limit
// bounds each wait for its answers (forkServer.limit).
func startForkServer(opts Options, stderr io.Writer, limit time.Duration) (*forkServer, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socketpair: %v", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "fork server socket")
	theirs := os.NewFile(uintptr(fds[1]), "fork server socket")
	defer theirs.Close()
	fc, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	cmd.Dir = opts.Dir
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(slices.Clip(env), forkEnv+"=3")
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.Stderr = stderr
	cmd.WaitDelay = closeGrace // a process that inherited its stderr does not hold up Wait
	tag := procgroup.Set(cmd)
	if err := cmd.Start(); err != nil {
		fc.Close()
		return nil, err
	}
	fs := &forkServer{
		cmd:    cmd,
		conn:   fc.(*net.UnixConn),
		exited: make(chan struct{}),
		limit:  limit,
		asked:  map[uint64]chan forkReply{},
		forked: map[int]*forkedProcess{},
	}
	go fs.read()
	go func() {
		cmd.Wait()
		tag.End() // the forked children, and what any of them started, orphans or not
		close(fs.exited)
	}()
	return fs, nil
}

// fork asks the server for a child, waiting up to fs.limit for its pid, or until closed is
// closed (errClosedWhileForking; a child forked after that finds its stdin closed, and ends).
func (fs *forkServer) fork(closed <-chan struct{}) (process, pipes, error) {
	ours, theirs, err := newPipes()
	if err != nil {
		return nil, pipes{}, err
	}
	defer theirs.close() // the server has its own copies once the request is written
	fs.mu.Lock()
	if fs.ended != nil {
		fs.mu.Unlock()
		ours.close()
		return nil, pipes{}, fs.ended
	}
	id := fs.next
	fs.next++
	reply := make(chan forkReply, 1)
	fs.asked[id] = reply
	fs.mu.Unlock()
	// The child's own tag, in the environment of what it starts, ends what it leaves behind
	// when it exits (wait), not when the server does.
	tag := procgroup.NewTag()
	name, value := tag.Env()
	msg := fmt.Appendf(nil, `{"op":"fork","id":%d,"env":{%q:%q}}`, id, name, value)
	rights := syscall.UnixRights(int(theirs.stdin.Fd()), int(theirs.stdout.Fd()), int(theirs.stderr.Fd()))
	if _, _, err := fs.conn.WriteMsgUnix(msg, rights, nil); err != nil {
		fs.end(fmt.Errorf("writing a fork request: %v", err))
	}
	t := time.NewTimer(fs.limit)
	defer t.Stop()
	select {
	case r := <-reply:
		if r.err != nil {
			ours.close()
			return nil, pipes{}, r.err
		}
		r.p.tag = tag
		return r.p, ours, nil
	case <-t.C:
		fs.end(fmt.Errorf("no answer to a fork request within %v", fs.limit))
		ours.close()
		return nil, pipes{}, fs.ended
	case <-closed:
		ours.close()
		return nil, pipes{}, errClosedWhileForking
	}
}

// read handles the server's messages until its socket ends.
func (fs *forkServer) read() {
	buf := make([]byte, 4096)
	for {
		n, err := fs.conn.Read(buf)
		if err != nil || n == 0 {
			fs.end(fs.endedWhy())
			return
		}
		var m forkMessage
		if err := json.Unmarshal(buf[:n], &m); err != nil {
			fs.end(fmt.Errorf("the fork server sent %q, not a message of the fork protocol", buf[:n]))
			return
		}
		if err := fs.handle(m); err != nil {
			fs.end(err)
			return
		}
	}
}

// handle records a forked or exited message.
func (fs *forkServer) handle(m forkMessage) error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	switch m.Op {
	case "forked":
		reply, ok := fs.asked[m.ID]
		if !ok {
			return fmt.Errorf("the fork server answered fork request %d, which was not asked", m.ID)
		}
		delete(fs.asked, m.ID)
		if m.Error != "" || m.Pid <= 0 {
			reply <- forkReply{err: fmt.Errorf("the fork server could not fork: %s", m.Error)}
			return nil
		}
		// A handle taken now (a pidfd) kills this process and no other, even once its pid is
		// free again: the server may reap it before toolproof reads the exit report.
		h, err := os.FindProcess(m.Pid)
		if err != nil {
			return fmt.Errorf("process %d, which the fork server forked: %v", m.Pid, err)
		}
		p := &forkedProcess{id: m.Pid, handle: h, fs: fs, exited: make(chan struct{})}
		fs.forked[m.Pid] = p
		reply <- forkReply{p: p}
	case "exited":
		p, ok := fs.forked[m.Pid]
		if !ok {
			return fmt.Errorf("the fork server says process %d exited, which it did not fork", m.Pid)
		}
		delete(fs.forked, m.Pid)
		p.err = exitError(m.Code, m.Signal, m.Core)
		close(p.exited)
		p.handle.Release()
	default:
		return fmt.Errorf("the fork server sent op %q, not a message of the fork protocol", m.Op)
	}
	return nil
}

// endedWhy says why the server's socket ended: its exit status when it exits soon after.
func (fs *forkServer) endedWhy() error {
	t := time.NewTimer(exitGrace)
	defer t.Stop()
	select {
	case <-fs.exited:
		return fmt.Errorf("the fork server exited (%v)", fs.cmd.ProcessState)
	case <-t.C:
		return errors.New("the fork server closed its socket")
	}
}

// exitError says how a process ended, in the words of os.ProcessState; nil for status 0.
func exitError(code, signal int, core bool) error {
	if signal != 0 {
		s := "signal: " + syscall.Signal(signal).String()
		if core {
			s += " (core dumped)"
		}
		return errors.New(s)
	}
	if code != 0 {
		return errors.New("exit status " + strconv.Itoa(code))
	}
	return nil
}

// end gives the server up after err: waiting fork requests fail, and the children it forked
// are killed (how they end cannot be known any more).
func (fs *forkServer) end(err error) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.ended != nil {
		return
	}
	fs.ended = err
	for id, reply := range fs.asked {
		reply <- forkReply{err: err}
		delete(fs.asked, id)
	}
	for pid, p := range fs.forked {
		p.killNow()
		p.err = fmt.Errorf("killed; how it ended is not known: %v", err)
		close(p.exited)
		p.handle.Release()
		delete(fs.forked, pid)
	}
	fs.conn.Close()
	select {
	case <-fs.exited: // its pid may be another process's by now
	default:
		procgroup.Kill(fs.cmd.Process)
	}
}

// close ends the server: it kills the children it still has, and exits.
func (fs *forkServer) close() {
	fs.conn.CloseWrite() // the server reads the end of its socket
	t := time.NewTimer(closeGrace)
	defer t.Stop()
	select {
	case <-fs.exited:
	case <-t.C:
	}
	fs.end(errors.New("the fork server was closed"))
	<-fs.exited
}

// forkedProcess is a child forked by a fork server; the server reports its exit.
type forkedProcess struct {
	id       int
	handle   *os.Process // killed by its pidfd where Linux has them
	fs       *forkServer
	exited   chan struct{} // closed once err is set
	err      error
	tag      procgroup.Tag // in the environment of what the child starts (set by fork)
	awaiting sync.Once     // the exit report of the killed child is awaited
}

func (p *forkedProcess) pid() int { return p.id }

// kill kills the child, and gives the server up when the exit is not reported within its
// limit: a wait for the exit never outlasts the kill by more.
func (p *forkedProcess) kill() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.killNow()
	p.awaiting.Do(func() {
		go func() {
			t := time.NewTimer(p.fs.limit)
			defer t.Stop()
			select {
			case <-p.exited:
			case <-t.C:
				p.fs.end(fmt.Errorf("the exit of process %d, killed, was not reported within %v", p.id, p.fs.limit))
			}
		}()
	})
}

// killNow kills the child's process group, and the child itself (by its handle) in case it
// has not made its group yet.
func (p *forkedProcess) killNow() {
	_ = syscall.Kill(-p.id, syscall.SIGKILL)
	_ = p.handle.Kill()
}

// wait waits for the exit report, then ends what the child started that outlived it.
func (p *forkedProcess) wait() error {
	<-p.exited
	p.tag.End()
	return p.err
}
