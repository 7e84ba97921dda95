package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolproof/toolproof/validator"
)

// gate is one tool of the server.
type gate struct {
	c        *Client
	name     string
	nameJSON []byte
	params   []paramHeader
}

// Check sends one call.
func (g *gate) Check(ctx context.Context, args []byte) validator.Verdict {
	return g.c.call(ctx, g, args)
}

// CheckBatch sends the calls pipelined, up to Options.Window in flight, each verdict at its
// call's index: over stdio it writes them itself and the session's reader settles each answer
// (batch.go); over HTTP the client's workers post them in turn.
func (g *gate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	if g.c.opts.URL == "" {
		return g.checkStdio(ctx, args)
	}
	out := make([]validator.Verdict, len(args))
	var wg sync.WaitGroup
	wg.Add(len(args))
	for i := range args {
		g.c.workers.run(g.c, job{ctx: ctx, g: g, args: args[i], out: &out[i], done: &wg})
	}
	wg.Wait()
	return out
}

// maxAttempts bounds how often a call is sent again after its session was ended for another
// call's timeout.
const maxAttempts = 3

// call sends one tools/call and reads its verdict. A call in flight when the server crashed
// is sent again alone, so that a crash is blamed on the call that caused it.
func (c *Client) call(ctx context.Context, g *gate, args []byte) validator.Verdict {
	params, why := callParams(c.callHead(), g.nameJSON, args)
	if params == nil {
		c.count("not sent")
		return validator.NotSent(why)
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return validator.Failed(validator.Timeout, "cancelled before it was sent")
	}
	defer func() { <-c.sem }()
	return c.settleCall(ctx, g.callRequest(params, args), args, nil)
}

// callRequest is the tools/call request of an argument text, its params made by callParams
// with the client's callHead.
func (g *gate) callRequest(params, args []byte) request {
	return request{method: "tools/call", params: params, name: g.name, paramHeaders: paramValues(g.params, args)}
}

// sent is how one sending of a call ended: on session s, with answer r and outcome out, or err
// when no session could be had.
type sent struct {
	s   link
	r   response
	out outcome
	err error
}

// settleCall returns the verdict of a call whose first sending ended as first says (nil: not
// sent yet), sending it again as often as that takes.
func (c *Client) settleCall(ctx context.Context, req request, args []byte, first *sent) validator.Verdict {
	alone := false
	for attempt := 1; ; attempt++ {
		var x sent
		if attempt == 1 && first != nil {
			x = *first
		} else {
			x.s, x.r, x.out, x.err = c.send(ctx, req, alone)
		}
		if x.err != nil {
			if c.opts.URL != "" {
				// No new session could be had: the run's fault, not this call's.
				c.markGone(unreachable, c.scrub.text(x.err.Error()))
			}
			if v, ok := c.goneVerdict(); ok {
				return v
			}
			c.count("crash")
			return validator.Failed(validator.Crash, x.err.Error())
		}
		if x.out == answered && x.r.ambiguous {
			// An error with "id": null answered one of the calls in flight: each goes again alone.
			alone = true
			continue
		}
		if x.out != ended {
			return c.answerVerdict(x.r, x.out, args)
		}
		// The session ended while this call was in flight.
		why, killed := x.s.reason()
		switch {
		case killed && attempt < maxAttempts:
			continue // ended for another call: send it again
		case !alone:
			// Maybe this call crashed it, or the session ended for others too often: send it
			// again with nothing else in flight.
			alone = true
			continue
		}
		c.count("crash")
		if alone {
			return validator.Failed(validator.Crash, "the server died while running this call alone: "+why)
		}
		return validator.Failed(validator.Crash, "the session ended while this call was in flight: "+why)
	}
}

// answerVerdict is the verdict of a call that ended otherwise than with its session: answered,
// timed out, cancelled, or the server gone.
func (c *Client) answerVerdict(r response, out outcome, args []byte) validator.Verdict {
	switch out {
	case answered:
		return c.verdict(r, objectRoot(args))
	case timedOut:
		c.count("timeout")
		if c.opts.URL != "" {
			return validator.Failed(validator.Timeout, fmt.Sprintf("no answer to tools/call within %v", c.opts.Timeout))
		}
		return validator.Failed(validator.Timeout,
			fmt.Sprintf("no answer to tools/call within %v; the server was restarted", c.opts.Timeout))
	case cancelled:
		return validator.Failed(validator.Timeout, "cancelled")
	}
	// unreachable, denied, broken
	c.markGone(out, r.Bad)
	v, _ := c.goneVerdict()
	return v
}

// send sends one tools/call on the current session, alone (no other call in flight) or not.
// Over stdio a call unanswered in time ends the session (the server is restarted).
func (c *Client) send(ctx context.Context, req request, alone bool) (link, response, outcome, error) {
	if alone || c.rotated.Load() {
		c.isolate.Lock()
		defer c.isolate.Unlock()
	} else {
		c.isolate.RLock()
		defer c.isolate.RUnlock()
	}
	s, err := c.session()
	if err != nil {
		return nil, response{}, 0, err
	}
	var r response
	var out outcome
	for try := 1; ; try++ {
		req.id, req.version = c.nextID.Add(1), c.modern()
		r, out = s.call(ctx, req, c.opts.Timeout)
		if out != answered || (r.Fault == "" && !r.stray) || try >= faultTries {
			break
		}
		c.retried.Add(1)
	}
	switch {
	case out == timedOut && c.opts.URL == "":
		s.kill(fmt.Sprintf("ended by toolproof: a call to %s went unanswered for %v", req.name, c.opts.Timeout))
	case out == answered && r.stray:
		// Only answers to other requests, every try: no answer can be matched to its call.
		r.Bad = fmt.Sprintf("%s, %d tries in a row: its answers cannot be matched to the calls", r.Bad, faultTries)
		out = broken
	}
	return s, r, out, nil
}

// faultTries is how often a tools/call is sent over HTTP when it meets a transport fault (an
// HTTP 5xx without a JSON-RPC answer, an answer that broke off, an answer to another request)
// before the fault is its verdict: a Crash, which the harness sends alone again before it
// blames the call (execute's blame), or, for answers to other requests, the end of the run.
const faultTries = 3

// objectRoot says whether an argument text is a JSON object (MCP's CallToolRequest wants one:
// a -32602 for anything else is the protocol's own check, not the tool's input validation).
func objectRoot(args []byte) bool {
	t := bytes.TrimLeft(args, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// verdict reads an answer and counts its form; object: the arguments were an object, so
// that a -32602 is input validation in the sense of SEP-1303.
func (c *Client) verdict(r response, object bool) validator.Verdict {
	if r.Fault != "" {
		c.count("crash: " + strings.SplitN(r.Fault, ":", 2)[0])
		return validator.Failed(validator.Crash, "the server failed this call: "+r.Fault)
	}
	v, form := c.answers.read(r)
	c.count(form)
	if form == FormRPCInvalidParams && object && sep1303Applies(c.protocol) {
		c.sep1303.Add(1)
	}
	if form == FormRPCInvalidParams && object && sep1303Applies(c.protocol) && c.opts.SEP1303 {
		return validator.Failed(validator.ProtocolError,
			fmt.Sprintf("SEP-1303: on protocol %s an input validation error is a tool result with isError: true, not "+
				"JSON-RPC -32602 (%s)", c.protocol, clip(r.Error.Message, 200)))
	}
	return v
}

// callParams makes the tools/call params, after head (callHead: `{` and the _meta of a
// modern session), with the argument text spliced in as written (less insignificant
// whitespace, so that it fits on one line). Text that is not one JSON value, or not UTF-8,
// cannot be sent in a JSON-RPC message: params is nil and why says so.
func callParams(head, nameJSON, args []byte) (params []byte, why string) {
	if !utf8.Valid(args) {
		return nil, "the argument text is not UTF-8; JSON-RPC messages are"
	}
	params = make([]byte, 0, len(head)+len(args)+len(nameJSON)+24)
	params = append(params, head...)
	params = append(params, `"name":`...)
	params = append(params, nameJSON...)
	params = append(params, `,"arguments":`...)
	// The text is checked as it is appended: one pass, no copy. What appendCompact leaves,
	// json.Compact reads.
	if out, ok := appendCompact(params, args); ok {
		return append(out, '}'), ""
	}
	buf := bytes.NewBuffer(params)
	if err := json.Compact(buf, args); err != nil {
		return nil, "the argument text is not JSON; MCP sends arguments as a JSON value inside a JSON-RPC message"
	}
	buf.WriteByte('}')
	return buf.Bytes(), ""
}
