package mcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/toolproof/toolproof/validator"
)

// batch is one CheckBatch over stdio. Its goroutine writes the calls itself, up to the window
// in flight; the session's reader settles each answer (reads it, stores the verdict at
// its index, frees its place in the window), so that a call starts no goroutine and waits on
// no channel of its own. One timer a batch ends the calls unanswered past Options.Timeout, and
// a call that needs more than its answer (its session ended, an ambiguous error, a timeout, a
// cancelled context) goes on along Client.settleCall on a goroutine of its own.
type batch struct {
	g    *gate
	ctx  context.Context
	args [][]byte
	out  []validator.Verdict
	wg   sync.WaitGroup

	mu      sync.Mutex
	flights []flight // by index; live while the call waits for its answer
	timer   *time.Timer
	armed   bool     // timer is set for the deadline of a live flight
	queued  *session // the session whose write queue holds calls not yet written
}

// flight is a call of a batch waiting for its answer on session s.
type flight struct {
	s        *session
	req      request
	deadline time.Time
	live     bool
}

// checkStdio is CheckBatch over stdio.
func (g *gate) checkStdio(ctx context.Context, args [][]byte) []validator.Verdict {
	b := &batch{g: g, ctx: ctx, args: args, out: make([]validator.Verdict, len(args)),
		flights: make([]flight, len(args))}
	stop := context.AfterFunc(ctx, func() { b.sweep(true) })
	head := g.c.callHead()
	for i := range args {
		params, why := callParams(head, g.nameJSON, args[i])
		if params == nil {
			g.c.count("not sent")
			b.out[i] = validator.NotSent(why)
			continue
		}
		if !b.room() {
			b.out[i] = validator.Failed(validator.Timeout, "cancelled before it was sent")
			continue
		}
		b.wg.Add(1)
		b.send(i, g.callRequest(params, args[i]))
	}
	b.flush()
	b.wg.Wait()
	stop()
	b.mu.Lock()
	if b.timer != nil {
		b.timer.Stop()
	}
	b.mu.Unlock()
	return b.out
}

// room takes a place in the window for the next call, writing the calls queued first when it
// has to wait for one; false: the context ended first.
func (b *batch) room() bool {
	sem := b.g.c.sem
	select {
	case sem <- struct{}{}:
		return true
	default:
	}
	b.flush()
	select {
	case sem <- struct{}{}:
		return true
	case <-b.ctx.Done():
		return false
	}
}

// flush writes the calls queued (their answers are awaited).
func (b *batch) flush() {
	if b.queued != nil {
		b.queued.out.flush(b.queued.conn)
		b.queued = nil
	}
}

// send queues call i on the current session, its place in the window taken: the calls of a
// batch go out together, in one write when nothing else is being written.
func (b *batch) send(i int, req request) {
	c := b.g.c
	if !c.isolate.TryRLock() {
		b.flush() // a call going alone waits for the answers of the calls queued
		c.isolate.RLock()
	}
	l, err := c.session()
	s, ok := l.(*session)
	if s != b.queued {
		b.flush()
	}
	if err != nil || !ok {
		c.isolate.RUnlock()
		var first *sent // a link that is not a stdio session: the call is sent from the start
		if err != nil {
			first = &sent{err: err}
		}
		go b.finish(i, req, first)
		return
	}
	req.id, req.version = c.nextID.Add(1), c.modern()
	// The flight and the settle function are set together: a sweep finds a live flight in flight.
	b.mu.Lock()
	b.flights[i] = flight{s: s, req: req, deadline: time.Now().Add(c.opts.Timeout), live: true}
	switch {
	case b.timer == nil:
		b.timer = time.AfterFunc(c.opts.Timeout, func() { b.sweep(false) })
	case !b.armed:
		b.timer.Reset(c.opts.Timeout) // it fired with no live flight, and set itself for none
	}
	b.armed = true
	ok = s.await(req.id, func(r response, out outcome) { b.answer(i, r, out) })
	b.mu.Unlock()
	if !ok {
		b.answer(i, response{}, ended)
		return
	}
	if b.ctx.Err() != nil && s.forget(req.id) {
		b.answer(i, response{}, cancelled)
		return
	}
	// A write that fails ends the session, whose reader then settles the call as ended. A
	// server that stops reading its input would block the write for ever: past the timeout the
	// session is ended, which unblocks it.
	s.out.queueRequest(req.id, req.method, req.params, c.opts.Timeout)
	b.queued = s
}

// answer settles call i: an answer is read here, on the reader's goroutine; any other
// outcome goes on along settleCall.
func (b *batch) answer(i int, r response, out outcome) {
	b.mu.Lock()
	f := b.flights[i]
	b.flights[i].live = false
	b.mu.Unlock()
	c := b.g.c
	if out == timedOut {
		f.s.kill(fmt.Sprintf("ended by toolproof: a call to %s went unanswered for %v", f.req.name, c.opts.Timeout))
	}
	c.isolate.RUnlock()
	if out == answered && !r.ambiguous {
		b.out[i] = c.answerVerdict(r, out, b.args[i])
		<-c.sem
		b.wg.Done()
		return
	}
	go b.finish(i, f.req, &sent{s: f.s, r: r, out: out})
}

// finish settles call i along settleCall from how its first sending ended (nil: not sent).
func (b *batch) finish(i int, req request, first *sent) {
	b.out[i] = b.g.c.settleCall(b.ctx, req, b.args[i], first)
	<-b.g.c.sem
	b.wg.Done()
}

// sweep ends the calls past their deadline (all of them: cancelled) and sets the timer for
// the next deadline.
func (b *batch) sweep(cancel bool) {
	now := time.Now()
	var due []int
	var next time.Time
	b.mu.Lock()
	for i, f := range b.flights {
		switch {
		case !f.live:
		case cancel || !now.Before(f.deadline):
			due = append(due, i)
		case next.IsZero() || f.deadline.Before(next):
			next = f.deadline
		}
	}
	if !cancel {
		b.armed = !next.IsZero()
		if b.armed {
			b.timer.Reset(next.Sub(now))
		}
	}
	b.mu.Unlock()
	out := timedOut
	if cancel {
		out = cancelled
	}
	for _, i := range due {
		b.mu.Lock()
		f := b.flights[i]
		b.mu.Unlock()
		if f.s.forget(f.req.id) {
			b.answer(i, response{}, out)
		}
	}
}

// await registers the settle function of a call about to be written; false: the session has
// ended (no reader will settle it).
func (s *session) await(id int64, settle func(response, outcome)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		return false
	default:
	}
	s.pending[id] = pendingCall{settle: settle, call: true}
	return true
}

// forget takes a call off the calls in flight (one that timed out or was cancelled takes no
// null); false: it was settled already.
func (s *session) forget(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.pending[id]
	delete(s.pending, id)
	if s.suspects[id] {
		delete(s.suspects, id) // it takes no null
		s.settle()
	}
	return ok
}
