package stdio

import (
	"context"
	"slices"
	"time"

	"github.com/toolproof/toolproof/internal/jsonvalue"
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
	refused  string // its child refused its tool (lazy.go): the reason
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
	if r.refused != "" {
		v = refusedVerdict(r, v)
	}
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
	need  int           // slots it waits for: min(want, c.win.refill)
	got   int           // slots granted, set before ready is signalled
	ready chan struct{} // gets a value when slots are granted
}

// acquire takes between 1 and want window slots and reports how many; 0 when ctx ends first.
// When the window is full it waits until c.win.refill slots (or want, when fewer) are free, so that
// requests go out in groups rather than one by one. Waiters are served in order.
func (c *Client) acquire(ctx context.Context, want int, w **slotWaiter) int {
	if ctx.Err() != nil {
		return 0
	}
	c.mu.Lock()
	if free := c.win.capacity - c.inflight; free > 0 && len(c.waiters) == 0 {
		k := min(free, want)
		c.inflight += k
		c.mu.Unlock()
		return k
	}
	if *w == nil {
		*w = &slotWaiter{ready: make(chan struct{}, 1)}
	}
	sw := *w
	sw.want, sw.need, sw.got = want, min(want, c.win.refill), 0
	c.win.starved = true
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
		free := c.win.capacity - c.inflight
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
	r.refused = ch.refused[r.tool]
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
		if p.cur != nil && p.load < c.win.perProc && (best == nil || p.load < best.load) {
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
	group := make([]*request, 0, min(len(args), c.win.most))
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
	c.cancelBatch(b, reqs, n)
	return out
}

// cancelBatch ends a cancelled batch: what has no verdict yet gets Timeout "cancelled"; late
// answers are dropped. n requests of it were submitted.
func (c *Client) cancelBatch(b *batch, reqs []request, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.remaining == 0 {
		return
	}
	b.abandoned = true
	for i := range reqs {
		if i >= n || !reqs[i].finished {
			b.out[i] = cancelled()
			c.count(b.out[i])
		}
	}
	c.stats.Requests += int64(len(reqs) - n)
}
