package stdio

import (
	"fmt"
	"time"

	"github.com/toolproof/toolproof/validator"
)

// attribute ends request id with a protocol_error when ch has it in flight.
func (c *Client) attribute(ch *child, id uint64, what string) bool {
	return c.deliver(ch, id, protocolError("the validator sent %s for this request", what))
}

// deliverAll ends the requests of got, written to ch, with their verdicts, and returns got
// emptied. Results for requests ch does not have are logged.
func (c *Client) deliverAll(ch *child, got []delivery) []delivery {
	unknown := 0
	c.mu.Lock()
	if !ch.dead { // else: a child given up on; its requests were handled, its lines do not count
		var written time.Duration = -1 // when the last request answered was written
		for _, d := range got {
			r := c.pending[d.id]
			if r == nil || r.child != ch {
				got[unknown] = d
				unknown++
				continue
			}
			written = r.deadline - c.opts.Timeout
			c.finish(r, d.v)
		}
		if written >= 0 && c.win.adaptive {
			c.adapt(c.clock() - written)
		}
	}
	c.mu.Unlock()
	for _, d := range got[:unknown] {
		c.stray("a result for an unknown id", d.line)
	}
	clear(got)
	return got[:0]
}

// deliver ends request id, written to ch, with v; false when ch has no such request.
func (c *Client) deliver(ch *child, id uint64, v validator.Verdict) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch.dead {
		return true // a child given up on: its requests were handled, its lines do not count
	}
	r := c.pending[id]
	if r == nil || r.child != ch {
		return false
	}
	c.finish(r, v)
	return true
}

// toolAnswered hands a tool answer to the oldest waiting registration.
func (c *Client) toolAnswered(ch *child, m map[string]any) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch.dead {
		return true
	}
	if len(ch.toolWaiters) == 0 {
		return false
	}
	w := ch.toolWaiters[0]
	ch.toolWaiters = ch.toolWaiters[1:]
	var ans toolAnswer
	name, _ := m["name"].(string)
	ok, isBool := m["ok"].(bool)
	switch {
	case name != w.t.Name:
		ans.reason = fmt.Sprintf("protocol error: the answer names tool %s, expected %q", jsonText(m["name"]), w.t.Name)
	case !isBool:
		ans.reason = `protocol error: the answer has no boolean "ok"`
	case ok:
		ans.ok = true
	default:
		ans.reason = "no reason given"
		if e, has := m["error"]; has {
			if s, isStr := e.(string); isStr {
				ans.reason = s
			} else {
				ans.reason = jsonText(e)
			}
		}
	}
	if !ans.ok && !w.record {
		c.toolRefused(ch, w.t.Name, ans.reason)
	}
	if p := ch.p; ans.ok && w.record && p.cur == ch {
		if i, seen := p.toolIndex[w.t.Name]; seen {
			p.tools[i] = w.t
		} else {
			p.toolIndex[w.t.Name] = len(p.tools)
			p.tools = append(p.tools, w.t)
		}
	}
	w.reply <- ans
	return true
}
