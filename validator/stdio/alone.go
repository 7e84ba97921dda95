package stdio

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// isolation is a second client of the same command, with a window of one on each of its
// processes: a call checked there is the only one its process has, so a crash is the call's own.
// It is started on first use, with AloneProcesses processes, so that calls run alone side by
// side and a death is met by a process that is running already; each of its children is sent
// a tool just before the first call of it (lazy.go).
type isolation struct {
	mu     sync.Mutex
	client *Client
	err    error // the client could not be started
	gates  map[string]validator.Gate
	closed bool
}

// AloneProcesses is how many processes run calls alone, each one call at a time, when a call
// must be told from the others in flight at a death (crash blame).
const AloneProcesses = 2

// checkAlone checks one call of the tool named name alone.
func (c *Client) checkAlone(ctx context.Context, name string, args []byte) validator.Verdict {
	g, v := c.aloneGate(name)
	if g == nil {
		return v
	}
	return g.Check(ctx, args)
}

// aloneGate returns the gate of the tool named name on the client that runs calls alone,
// starting that client on first use; when there is none, the verdict says why.
func (c *Client) aloneGate(name string) (validator.Gate, validator.Verdict) {
	iso := &c.iso
	iso.mu.Lock()
	defer iso.mu.Unlock()
	if iso.closed {
		return nil, validator.Failed(validator.Crash, "the validator was closed")
	}
	if iso.client == nil && iso.err == nil {
		opts := c.opts
		opts.Processes, opts.Window = AloneProcesses, 1
		iso.client, iso.err = start(opts, c.forks)
		iso.gates = map[string]validator.Gate{}
	}
	if iso.err != nil {
		return nil, validator.Unclear(fmt.Sprintf("could not start a process to run the call alone (so it cannot be "+
			"told whether it crashed the validator): %v", iso.err))
	}
	g := iso.gates[name]
	if g == nil {
		t, ok := c.toolNamed(name)
		if !ok {
			return nil, validator.Failed(validator.ProtocolError, fmt.Sprintf("tool %q is not registered", name))
		}
		g = iso.client.gateLazily(t)
		iso.gates[name] = g
	}
	return g, validator.Verdict{}
}

// toolNamed returns a tool registered with the first process.
func (c *Client) toolNamed(name string) (tool.Tool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.procs[0]
	if i, ok := p.toolIndex[name]; ok {
		return p.tools[i], true
	}
	return tool.Tool{}, false
}

func (iso *isolation) close() error {
	iso.mu.Lock()
	defer iso.mu.Unlock()
	iso.closed = true
	if iso.client != nil {
		return iso.client.Close()
	}
	return nil
}

var _ validator.Fallible = (*Client)(nil)

// A StoppedError says why an external validator can no longer give verdicts that count: it
// could not be restarted, or no process could be started to run a call alone (so a call that
// may have crashed it cannot be judged).
type StoppedError struct{ Why string }

func (e *StoppedError) Error() string { return e.Why }

// Err is why the validator stopped giving verdicts that count (validator.Fallible), nil while
// it gives them: a run that goes on after it is marked interrupted, never passed.
func (c *Client) Err() error {
	c.mu.Lock()
	broken, closed := c.broken, c.closed
	c.mu.Unlock()
	if broken != "" && !closed {
		return &StoppedError{broken}
	}
	c.iso.mu.Lock()
	err := c.iso.err
	c.iso.mu.Unlock()
	if err != nil {
		return &StoppedError{"could not start a process to run a call alone, so the calls that may have crashed " +
			"the validator were not judged: " + err.Error()}
	}
	return nil
}
