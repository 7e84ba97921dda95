package stdio

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// request is one validate message on its way.
type request struct {
	id    uint64
	tool  string // the tool it calls
	line  []byte // the whole message, newline included; sent again after a restart
	batch *batch
	index int // in batch.out

	// Guarded by c.mu.
	proc     *proc         // the process slot it was given to
	child    *child        // the child it was given to; nil while it waits for one
	sent     bool          // taken by child's sender
	seq      uint64        // order of writing on child
	deadline time.Duration // on c.clock
	finished bool
}

// batch collects the verdicts of one CheckBatch call.
type batch struct {
	out       []validator.Verdict
	done      chan struct{} // closed when remaining reaches 0
	remaining int           // guarded by c.mu
	abandoned bool          // guarded by c.mu: the caller returned (cancelled); out is not ours
}

// finish ends r with v, once, and frees its window slot. Called with c.mu held.
func (c *Client) finish(r *request, v validator.Verdict) {
	if r.finished {
		return
	}
	r.finished = true
	r.child = nil
	r.line = nil
	if r.proc != nil {
		r.proc.load--
	}
	delete(c.pending, r.id)
	b := r.batch
	if !b.abandoned {
		b.out[r.index] = v
		c.count(v)
	}
	b.remaining--
	if b.remaining == 0 {
		close(b.done)
	}
	c.inflight--
	if len(c.waiters) > 0 {
		c.grant()
	}
}

// count adds a verdict to the stats. Called with c.mu held.
func (c *Client) count(v validator.Verdict) {
	switch v.Fault {
	case "", validator.GateError:
		c.stats.Verdicts++
	case validator.Crash:
		c.stats.Crashes++
	case validator.Timeout:
		c.stats.Timeouts++
	default:
		c.stats.ProtocolErrors++
	}
}

// slotWaiter is a batch waiting for window slots.
type slotWaiter struct {
	want  int           // slots it can use
	need  int           // slots it waits for: min(want, c.refill)
	got   int           // slots granted, set before ready is signalled
	ready chan struct{} // gets a value when slots are granted
}

// acquire takes between 1 and want window slots and reports how many; 0 when ctx ends first.
// When the window is full it waits until c.refill slots (or want, when fewer) are free, so that
// requests go out in groups rather than one by one. Waiters are served in order.
func (c *Client) acquire(ctx context.Context, want int, w **slotWaiter) int {
	if ctx.Err() != nil {
		return 0
	}
	c.mu.Lock()
	if free := c.capacity - c.inflight; free > 0 && len(c.waiters) == 0 {
		k := min(free, want)
		c.inflight += k
		c.mu.Unlock()
		return k
	}
	if *w == nil {
		*w = &slotWaiter{ready: make(chan struct{}, 1)}
	}
	sw := *w
	sw.want, sw.need, sw.got = want, min(want, c.refill), 0
	c.waiters = append(c.waiters, sw)
	c.grant() // slots may be free while others wait for more
	c.mu.Unlock()
	select {
	case <-sw.ready:
		return sw.got
	case <-ctx.Done():
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if sw.got > 0 { // granted meanwhile: give the slots back
		<-sw.ready
		c.inflight -= sw.got
		sw.got = 0
	} else if i := slices.Index(c.waiters, sw); i >= 0 {
		c.waiters = slices.Delete(c.waiters, i, i+1)
	}
	c.grant()
	return 0
}

// grant hands free window slots to the waiters in order, as long as the first one gets what it
// waits for. Called with c.mu held.
func (c *Client) grant() {
	for len(c.waiters) > 0 {
		w := c.waiters[0]
		free := c.capacity - c.inflight
		if free < w.need {
			return
		}
		w.got = min(free, w.want)
		c.inflight += w.got
		c.waiters[0] = nil
		c.waiters = c.waiters[1:]
		w.ready <- struct{}{}
	}
}

// submit hands requests (each holding a window slot) to the children, or holds them for the
// next child of their slot while a restart is under way.
func (c *Client) submit(rs []*request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Requests += int64(len(rs))
	if c.closed || c.broken != "" {
		v := c.deadVerdict()
		for _, r := range rs {
			c.finish(r, v)
		}
		return
	}
	if len(c.procs) == 1 {
		p := c.procs[0]
		p.load += len(rs)
		for _, r := range rs {
			p.give(c, r)
		}
		if p.cur != nil {
			p.cur.cond.Signal()
		}
		return
	}
	for _, r := range rs {
		p := c.pick()
		p.load++
		p.give(c, r)
	}
	for _, p := range c.procs {
		if p.cur != nil && len(p.cur.queue) > 0 {
			p.cur.cond.Signal()
		}
	}
}

// give queues r for the child of p, or holds it for p's next child. Called with c.mu held.
func (p *proc) give(c *Client, r *request) {
	c.pending[r.id] = r
	r.proc = p
	if ch := p.cur; ch != nil {
		ch.take(r)
	} else {
		p.waiting = append(p.waiting, r)
	}
}

// take queues r on ch, after its tool when ch has not had it yet (a restarted child registers a
// tool when the first call of it comes: the protocol answers a tool before any call of it).
// Called with c.mu held.
func (ch *child) take(r *request) {
	if !ch.registered[r.tool] {
		p := ch.p
		if i, ok := p.toolIndex[r.tool]; ok {
			if line, err := toolLine(p.tools[i]); err == nil {
				ch.registered[r.tool] = true
				ch.toolWaiters = append(ch.toolWaiters, &toolWaiter{t: p.tools[i], reply: make(chan toolAnswer, 1)})
				ch.queue = append(ch.queue, outItem{line: line})
			}
		}
	}
	r.child = ch
	ch.queue = append(ch.queue, outItem{req: r, line: r.line})
}

// pick chooses the process slot for one more request: the least loaded one among those with a
// running child and room in their window, else the least loaded one. Since a request holds one
// of Window×Processes slots, the least loaded one always has room. Called with c.mu held.
func (c *Client) pick() *proc {
	var best, least *proc
	for _, p := range c.procs {
		if least == nil || p.load < least.load {
			least = p
		}
		if p.cur != nil && p.load < c.opts.Window && (best == nil || p.load < best.load) {
			best = p
		}
	}
	if best != nil {
		return best
	}
	return least
}

// gate checks calls of one registered tool.
type gate struct {
	c     *Client
	name  string
	field []byte // `,"tool":"NAME",`
}

func newGate(c *Client, name string) *gate {
	f := append([]byte(`,"tool":`), jsonvalue.AppendString(nil, name)...)
	return &gate{c: c, name: name, field: append(f, ',')}
}

// CheckAlone runs one call on a process of its own that takes one request at a time (started on
// first use, restarted after a crash), so that a crash it gives is this call's.
func (g *gate) CheckAlone(ctx context.Context, args []byte) validator.Verdict {
	return g.c.checkAlone(ctx, g.name, args)
}

// Check asks the child for a verdict on one call.
func (g *gate) Check(ctx context.Context, args []byte) validator.Verdict {
	return g.CheckBatch(ctx, [][]byte{args})[0]
}

// CheckBatch pipelines the calls, keeping the window full, and returns one verdict for each.
func (g *gate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	c := g.c
	out := make([]validator.Verdict, len(args))
	if len(args) == 0 {
		return out
	}
	reqs := make([]request, len(args))
	b := &batch{out: out, remaining: len(args), done: make(chan struct{})}
	group := make([]*request, 0, min(len(args), c.capacity))
	var lines []byte // where the messages are built, a chunk at a time
	var w *slotWaiter
	n := 0 // requests submitted
	for n < len(args) {
		k := c.acquire(ctx, min(len(args)-n, cap(group)), &w)
		if k == 0 {
			break
		}
		group = group[:0]
		id := c.nextID.Add(uint64(k)) - uint64(k)
		for i := n; i < n+k; i++ {
			id++
			r := &reqs[i]
			r.id = id
			r.tool = g.name
			r.batch, r.index = b, i
			extra, ascii := measureArguments(args[i])
			if size := g.lineSize(args[i], extra, ascii); cap(lines)-len(lines) < size {
				lines = make([]byte, 0, max(size, min(lineChunk, size*(len(args)-i))))
			}
			start := len(lines)
			lines = g.appendLine(lines, r.id, args[i], extra, ascii)
			r.line = lines[start:len(lines):len(lines)]
			group = append(group, r)
		}
		c.submit(group)
		n += k
	}
	if n == len(args) {
		select {
		case <-b.done:
			return out
		case <-ctx.Done():
		}
	}

	// Cancelled: what has no verdict yet gets Timeout "cancelled"; late answers are dropped.
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.remaining == 0 {
		return out
	}
	b.abandoned = true
	for i := range args {
		if i >= n || !reqs[i].finished {
			out[i] = cancelled()
			c.count(out[i])
		}
	}
	c.stats.Requests += int64(len(args) - n)
	return out
}

// lineChunk is the size of the buffers validate messages are built in: small messages share
// one, which lives until all of them are answered.
const lineChunk = 16 << 10

// lineOverhead is the size of a validate message without its tool field and arguments:
// {"op":"validate","id":N,"arguments_base64":""}, a line end and N of up to 20 digits.
const lineOverhead = len(`{"op":"validate","id":"arguments_base64":""}`) + 1 + 20

// lineSize is the size of the validate message for args (measured by measureArguments) when
// args is ASCII, else a size enough for most texts: appendLine grows the buffer for the others.
func (g *gate) lineSize(args []byte, extra int, ascii bool) int {
	n := len(args) + extra
	if !ascii {
		n = max(n+len(args)/8, (len(args)+2)/3*4)
	}
	return lineOverhead + len(g.field) + n
}

// appendLine appends the validate message for args, measured by measureArguments, to b.
func (g *gate) appendLine(b []byte, id uint64, args []byte, extra int, ascii bool) []byte {
	b = append(b, `{"op":"validate","id":`...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, g.field...)
	start := len(b)
	b = append(b, `"arguments":`...)
	if ascii {
		b = appendASCII(b, args, extra)
	} else if out, ok := jsonvalue.AppendStringBytes(b, args); ok {
		b = out
	} else {
		b = append(b[:start], `"arguments_base64":"`...)
		b = base64.StdEncoding.AppendEncode(b, args)
		b = append(b, '"')
	}
	return append(b, "}\n"...)
}

// escapeExtra is how many bytes the escape of an ASCII byte adds: 1 for \" \\ \n \r \t, 5 for
// the other control characters (\u00XX), 0 for the rest.
var escapeExtra = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = 5
	}
	for _, c := range []byte{'"', '\\', '\n', '\r', '\t'} {
		t[c] = 1
	}
	return t
}()

// measureArguments reports how many bytes escaping adds to the ASCII bytes of args, and whether
// args is all ASCII.
func measureArguments(args []byte) (extra int, ascii bool) {
	high := byte(0)
	for _, c := range args {
		extra += int(escapeExtra[c])
		high |= c
	}
	return extra, high < utf8.RuneSelf
}

// appendArguments appends args as a JSON string, as jsonvalue.AppendString does; ok is false
// when args is not valid UTF-8 (and what was appended is to be dropped).
func appendArguments(dst, args []byte) (_ []byte, ok bool) {
	if extra, ascii := measureArguments(args); ascii {
		return appendASCII(dst, args, extra), true
	}
	return jsonvalue.AppendStringBytes(dst, args)
}

// appendASCII appends ASCII args, whose escapes add extra bytes, as a JSON string: written in
// place, the common case.
func appendASCII(dst, args []byte, extra int) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(args)+extra+2)[:n+len(args)+extra+2]
	out := dst[n:]
	out[0] = '"'
	if extra == 0 {
		copy(out[1:], args)
	} else {
		j := 1
		for _, c := range args {
			switch escapeExtra[c] {
			case 0:
				out[j] = c
				j++
			case 1:
				out[j] = '\\'
				switch c {
				case '\n':
					c = 'n'
				case '\r':
					c = 'r'
				case '\t':
					c = 't'
				}
				out[j+1] = c
				j += 2
			default:
				out[j], out[j+1], out[j+2], out[j+3], out[j+4], out[j+5] = '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf]
				j += 6
			}
		}
	}
	out[len(out)-1] = '"'
	return dst
}

const hexDigits = "0123456789abcdef"

// toolLine builds the tool message for t; its parameters go as given, compacted to one line.
func toolLine(t tool.Tool) ([]byte, error) {
	params := []byte(t.Parameters)
	if len(bytes.TrimSpace(params)) == 0 {
		params = []byte("{}")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, params); err != nil {
		return nil, fmt.Errorf("parameters are not JSON: %v", err)
	}
	p := buf.Bytes()
	// Line separators can only be inside strings here; some line readers split on them.
	p = bytes.ReplaceAll(p, []byte("\u2028"), []byte(`\u2028`))
	p = bytes.ReplaceAll(p, []byte("\u2029"), []byte(`\u2029`))
	b := append([]byte(`{"op":"tool","tool":{"name":`), jsonvalue.AppendString(nil, t.Name)...)
	if t.Description != "" {
		b = append(b, `,"description":`...)
		b = jsonvalue.AppendString(b, t.Description)
	}
	b = append(b, `,"parameters":`...)
	b = append(b, p...)
	return append(b, "}}\n"...), nil
}

// verdictOf reads a result message.
func verdictOf(m map[string]any) validator.Verdict {
	if e, has := m["error"]; has {
		s, ok := e.(string)
		if !ok {
			s = jsonText(e)
		}
		return validator.Failed(validator.ProtocolError, "the validator failed on this request: "+s)
	}
	if g, has := m["gate_error"]; has {
		return gateErrorOf(g)
	}
	if why, has := m["not_sent"]; has {
		s, ok := why.(string)
		if !ok {
			return protocolError(`the validator sent a result whose "not_sent" is %s, not a string`, jsonvalue.TypeName(why))
		}
		return validator.NotSent(s)
	}
	if detail, has := m["unclear"]; has {
		s, ok := detail.(string)
		if !ok {
			return protocolError(`the validator sent a result whose "unclear" is %s, not a string`, jsonvalue.TypeName(detail))
		}
		issues, err := issuesOf(m["issues"])
		if err != nil {
			return protocolError("the validator sent a result with %v", err)
		}
		v := validator.Unclear(s)
		v.Issues = issues
		return v
	}
	raw, has := m["valid"]
	if !has {
		return protocolError(`the validator sent a result without "valid"`)
	}
	valid, ok := raw.(bool)
	if !ok {
		return protocolError(`the validator sent a result whose "valid" is %s, not a boolean`, jsonvalue.TypeName(raw))
	}
	if valid {
		v := validator.Verdict{Valid: true}
		if val, has := m["value"]; has {
			v.Value, v.HasValue = val, true
		}
		return v
	}
	issues, err := issuesOf(m["issues"])
	if err != nil {
		return protocolError("the validator sent a result with %v", err)
	}
	return validator.Verdict{Issues: issues}
}

// gateErrorOf reads {"message": S, "stack": S}: the gate threw on the input (an exception out of
// the library or framework under test, not the adapter's failure).
func gateErrorOf(g any) validator.Verdict {
	m, ok := g.(map[string]any)
	msg, okMsg := m["message"].(string)
	if !ok || !okMsg {
		return protocolError(`the validator sent a result whose "gate_error" is not {"message": string, "stack"?: string}`)
	}
	detail := msg
	if stack, _ := m["stack"].(string); strings.TrimSpace(stack) != "" {
		detail += "\n" + strings.TrimSpace(stack)
	}
	return validator.Failed(validator.GateError, detail)
}

// issuesOf reads the issues of a result; "/" is taken for the root "".
func issuesOf(v any) ([]validator.Issue, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf(`"issues" that is %s, not an array`, jsonvalue.TypeName(v))
	}
	issues := make([]validator.Issue, 0, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("issue %d that is %s, not an object", i, jsonvalue.TypeName(e))
		}
		var is validator.Issue
		for _, f := range []struct {
			key string
			dst *string
		}{{"path", &is.Path}, {"message", &is.Message}, {"keyword", &is.Keyword}} {
			x, has := m[f.key]
			if !has || x == nil {
				continue
			}
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("issue %d whose %q is %s, not a string", i, f.key, jsonvalue.TypeName(x))
			}
			*f.dst = s
		}
		if is.Path == "/" {
			is.Path = ""
		}
		if is.Path != "" && !strings.HasPrefix(is.Path, "/") {
			return nil, fmt.Errorf("issue %d whose path is not a JSON Pointer", i)
		}
		issues = append(issues, is)
	}
	return issues, nil
}

func protocolError(format string, args ...any) validator.Verdict {
	return validator.Failed(validator.ProtocolError, fmt.Sprintf(format, args...))
}

// readID reads a request id: a non-negative integer.
func readID(v any) (uint64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseUint(string(n), 10, 64)
	return id, err == nil
}
