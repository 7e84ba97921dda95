package stdio

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// isolation is a second client of the same command, with one process and a window of one: a
// call checked there is the only one the process has, so a crash is the call's own. It is
// started on first use, and registers a tool the first time a call of it comes.
type isolation struct {
	mu     sync.Mutex
	client *Client
	err    error // the client could not be started
	gates  map[string]validator.Gate
	closed bool
}

// checkAlone checks one call of the tool named name alone.
func (c *Client) checkAlone(ctx context.Context, name string, args []byte) validator.Verdict {
	iso := &c.iso
	iso.mu.Lock()
	defer iso.mu.Unlock()
	if iso.closed {
		return validator.Failed(validator.Crash, "the validator was closed")
	}
	if iso.client == nil && iso.err == nil {
		opts := c.opts
		opts.Processes, opts.Window = 1, 1
		iso.client, iso.err = Start(opts)
		iso.gates = map[string]validator.Gate{}
	}
	if iso.err != nil {
		return validator.Failed(validator.Crash, fmt.Sprintf("could not start a process to run the call alone: %v", iso.err))
	}
	g := iso.gates[name]
	if g == nil {
		t, ok := c.toolNamed(name)
		if !ok {
			return validator.Failed(validator.ProtocolError, fmt.Sprintf("tool %q is not registered", name))
		}
		var err error
		if g, err = iso.client.Compile(t); err != nil {
			return validator.Failed(validator.Crash, fmt.Sprintf("registering tool %q on a process of its own: %v", name, err))
		}
		iso.gates[name] = g
	}
	return g.Check(ctx, args)
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
