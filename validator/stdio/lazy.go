package stdio

import (
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// Lazy registration: a child other than a slot's first one (a restarted child, a spare, a
// process of the client that runs calls alone) is sent hello and then only the tools of the
// calls it is given, each just before its first call (child.take), without waiting for the
// answer: the child reads its lines in order, and answers a tool before any call of it. The
// first child's answers decide which tools are tested (Compile); a later child that refuses a
// tool its first one accepted fails each call of that tool it is given with a protocol error,
// whatever it answers to them.

// gateLazily returns a gate for t, which the first process of another client accepted,
// registered with each child of c just before the first call of t it is given.
func (c *Client) gateLazily(t tool.Tool) validator.Gate {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.procs {
		if i, ok := p.toolIndex[t.Name]; ok {
			p.tools[i] = t
			continue
		}
		p.toolIndex[t.Name] = len(p.tools)
		p.tools = append(p.tools, t)
	}
	return newGate(c, t.Name)
}

// toolRefused records that ch refused a tool sent to it lazily: the calls of it ch was given
// fail, and so do those it is given later. Called with c.mu held.
func (c *Client) toolRefused(ch *child, name, reason string) {
	if ch.refused == nil {
		ch.refused = map[string]string{}
	}
	ch.refused[name] = reason
	for _, r := range c.pending {
		if r.child == ch && r.tool == name {
			r.refused = reason
		}
	}
}

// refusedVerdict is the verdict of a call given to a child that refused its tool, in place of
// the answer v the child gave it: a crash or timeout stays what it is, anything else is a
// protocol error.
func refusedVerdict(r *request, v validator.Verdict) validator.Verdict {
	if v.Fault == validator.Crash || v.Fault == validator.Timeout {
		return v
	}
	return protocolError("a process of the validator started after the first refused tool %q, which the first "+
		"accepted (%s); the call's answer does not count", r.tool, r.refused)
}
