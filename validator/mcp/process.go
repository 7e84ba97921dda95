package mcp

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/toolproof/toolproof/internal/procgroup"
)

// procConn is a server process: stdin, stdout, and its exit status and last lines of stderr.
type procConn struct {
	cmd    *exec.Cmd
	tag    procgroup.Tag // what the server started, in its group or not
	stdin  io.WriteCloser
	stdout io.ReadCloser
	tail   *tailWriter

	once    sync.Once
	waitErr error
}

// closeGrace is how long Close waits for the server to exit after closing its stdin.
const closeGrace = time.Second

func startProcess(argv []string, dir string, env []string, stderr io.Writer) (*procConn, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command to start")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	tag := procgroup.Set(cmd)
	cmd.WaitDelay = 2 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	tail := &tailWriter{max: 2048}
	if stderr == nil {
		stderr = os.Stderr
	}
	cmd.Stderr = io.MultiWriter(stderr, tail)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %v", strings.Join(argv, " "), err)
	}
	// A child the server started in its group dies with it, so that the server's output ends
	// and nothing outlives the run.
	procgroup.KillWhenLeaderExits(cmd.Process, tag)
	return &procConn{cmd: cmd, tag: tag, stdin: stdin, stdout: stdout, tail: tail}, nil
}

func (p *procConn) Read(b []byte) (int, error)  { return p.stdout.Read(b) }
func (p *procConn) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close closes the server's stdin, waits closeGrace for it to exit, then kills its process group
// and every process it started.
func (p *procConn) Close() error {
	p.once.Do(func() {
		_ = p.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- p.cmd.Wait() }()
		select {
		case err := <-done:
			p.waitErr = err
		case <-time.After(closeGrace):
			procgroup.Kill(p.cmd.Process)
			p.waitErr = <-done
		}
		// The process group may hold children (npx and node) that keep the pipes open, and a
		// child may have left the group (setsid).
		procgroup.Kill(p.cmd.Process)
		p.tag.End()
	})
	return nil
}

// Describe says how the process ended and what it last wrote on stderr.
func (p *procConn) Describe() string {
	var parts []string
	if st := p.cmd.ProcessState; st != nil {
		parts = append(parts, st.String())
	}
	if t := strings.TrimSpace(p.tail.String()); t != "" {
		parts = append(parts, "stderr: "+clip(t, 1000))
	}
	return strings.Join(parts, "; ")
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
