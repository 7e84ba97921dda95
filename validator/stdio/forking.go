package stdio

import (
	"errors"
	"sync"
	"time"
)

// forkEnv names the environment variable that makes a validator process a fork server, and
// gives the descriptor of its socket (PROTOCOL.md, "Fork server").
const forkEnv = "TOOLPROOF_FORK_FD"

// errClosedWhileForking is the error of a fork given up because the client closed.
var errClosedWhileForking = errors.New("closed while waiting for a fork")

// forking holds a client's fork server, shared with the client that runs calls alone. When the
// first hello offers "fork": true, every process after the first ones is forked by a server
// started on first need, instead of being started anew: a start then costs a fork, not an
// interpreter and its imports. A server that cannot be used is given up for good, with a note,
// and processes are started anew from then on.
type forking struct {
	mu      sync.Mutex
	offered bool        // the first hello said "fork": true
	server  *forkServer // started on first need
	failed  bool        // the server could not be used
	closed  bool
	// limit bounds the wait for a fork's answer and for the exit report of a child killed; 0
	// is the start timeout of the client (the tests shorten it).
	limit time.Duration
}

// offer records that the validator offers a fork server.
func (f *forking) offer() {
	f.mu.Lock()
	f.offered = true
	f.mu.Unlock()
}

// get returns the fork server, starting it when needed; nil when there is none to use. c is
// the client asking, for its options and notes.
func (f *forking) get(c *Client) *forkServer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.offered || f.failed || f.closed {
		return nil
	}
	if f.server == nil {
		limit := f.limit
		if limit <= 0 {
			limit = max(startTimeout, c.opts.Timeout)
		}
		fs, err := startForkServer(c.opts, c.stderr, limit)
		if err != nil {
			f.failed = true
			c.logLocked("its fork server could not be started (%v); each process is started anew", err)
			return nil
		}
		f.server = fs
	}
	return f.server
}

// fail gives up fs after err: processes are started anew from now on. A server that still
// runs (it answered with an error) is left running until close: the processes it forked go
// on, and their exits are still reported.
func (f *forking) fail(c *Client, fs *forkServer, err error) {
	f.mu.Lock()
	first := !f.failed && f.server == fs
	if first {
		f.failed = true
	}
	f.mu.Unlock()
	if first {
		c.logf("its fork server failed (%v); each process is started anew", err)
	}
}

// close ends the fork server, if one was started.
func (f *forking) close() {
	f.mu.Lock()
	f.closed = true
	fs := f.server
	f.mu.Unlock()
	if fs != nil {
		fs.close()
	}
}

// startProcess starts a process for a child: forked by the fork server when there is one to
// use, else anew.
func (c *Client) startProcess() (process, pipes, error) {
	if fs := c.forks.get(c); fs != nil {
		pr, ends, err := fs.fork(c.closedCh)
		switch {
		case err == nil:
			c.mu.Lock()
			c.stats.Forks++
			c.mu.Unlock()
			return pr, ends, nil
		case errors.Is(err, errClosedWhileForking):
			return nil, pipes{}, err
		}
		c.forks.fail(c, fs, err)
	}
	return c.startExec()
}
