package execute

import (
	"context"
	"fmt"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/validator"
)

// Judge judges the cases of one check with their verdicts.
type Judge func(cs []corpus.Case, originals []any, verdicts []validator.Verdict, mutated []bool)

// A Stream sends the draws of one tool to its gate and judges them in the order drawn. It keeps
// the checks of a gate in another process (a validator.BatchGate) in flight while
// the next ones are drawn: each check's cases go to the gate as soon as they are drawn, and the
// checks are judged in the order they were drawn, whatever order the answers come in, so that
// the seed gives the same report. The cases drawn never depend on a verdict (nothing stops
// early), so drawing ahead changes nothing but the time. Any other gate is checked and judged
// at once, as drawn.
//
// What a draw sends depends on the crashes proven before it (crashy.go): so a check goes ahead
// only while none is proven on its tool, and sends its cases as checkDraw then does
// (sendDraw). Its crashes are recorded when it is judged, in the order drawn; a check sent
// ahead of a crash proven before it is judged is checked again with checkDraw, as it would have
// been. Once a crash is proven, the checks of the tool go one at a time.
type Stream struct {
	ex    *Executor
	gate  validator.Gate
	judge Judge
	async bool
	queue []*flight // oldest first
	// window is how many checks may be in flight: it starts small and doubles (up to
	// maxWindow) each time the oldest check is not answered when it is due, so that it grows
	// to cover the gate's latency.
	window int
	// stop ends the wait for answers when the run is stopped (the tool's Stop: a signal,
	// --max-time, a tool before this one on which the validator stopped answering): the checks
	// still in flight are then left unjudged, as a stopped run leaves the checks it did not
	// draw. A validator that stops answering on this tool stops it in judged, at a check the
	// seed decides.
	stop    <-chan struct{}
	stopped bool
	// ctx is the tool's Stop: a check in flight when the tool stops is cancelled, so that the
	// gate drops its calls instead of spending a timeout on each while the tools before it,
	// which the run waits for, share its processes.
	ctx context.Context
}

// flight is one check on its way: its cases, and its verdicts once done is closed.
type flight struct {
	cs        []corpus.Case
	originals []any
	verdicts  []validator.Verdict
	mutated   []bool
	done      chan struct{}
}

const (
	startWindow = 4  // checks in flight at first
	maxWindow   = 64 // checks in flight at most
)

// Stream is a Stream of draws to g, each judged by judge; stop is the tool's Stop (nil: none).
func (e *Executor) Stream(g validator.Gate, judge Judge, stop context.Context) *Stream {
	_, batch := g.(validator.BatchGate)
	if stop == nil {
		stop = context.Background()
	}
	return &Stream{ex: e, gate: g, judge: judge, async: batch, window: startWindow, stop: stop.Done(), ctx: stop}
}

// Add sends the cases of one check to the gate and judges the checks that are due.
func (f *Stream) Add(cs []corpus.Case, originals []any) {
	if f.stopped {
		return
	}
	if !f.async || f.ex.crash.proven {
		f.Drain()
		if f.stopped {
			return
		}
		verdicts, mutated := f.ex.checkDraw(f.gate, cs)
		f.judged(cs, originals, verdicts, mutated)
		return
	}
	fl := &flight{cs: cs, originals: originals, done: make(chan struct{})}
	go func() {
		defer close(fl.done)
		// A gate that panics or ends the goroutine answers every case of the check with a crash.
		defer func() {
			if fl.verdicts == nil {
				fl.verdicts, fl.mutated = crashed(len(fl.cs), recover()), make([]bool, len(fl.cs))
			}
		}()
		fl.verdicts, fl.mutated = f.ex.sendDraw(f.ctx, f.gate, fl.cs)
	}()
	f.queue = append(f.queue, fl)
	for len(f.queue) > f.window && !f.stopped {
		f.next(true)
	}
}

// next waits for the oldest check and judges it; with grow, a wait widens the window.
func (f *Stream) next(grow bool) {
	fl := f.queue[0]
	f.queue[0] = nil
	f.queue = f.queue[1:]
	select {
	case <-fl.done:
	default:
		if grow && f.window < maxWindow {
			f.window *= 2
		}
		select {
		case <-fl.done:
		case <-f.stop:
		}
	}
	if f.ctx.Err() != nil {
		// Stopped: this check may have been cancelled (its verdicts "cancelled"); it is left
		// unjudged with the rest.
		f.stopped, f.queue = true, nil
		return
	}
	if f.ex.crash.proven {
		// A check judged before this one proved a crash: this one is sent as it then would be,
		// unless its valid case crashed alone already, which tells what that sending gives.
		if vs, ok := f.ex.afterLead(fl.cs, fl.verdicts); ok {
			fl.verdicts, fl.mutated = vs, make([]bool, len(fl.cs))
		} else {
			fl.verdicts, fl.mutated = f.ex.checkDraw(f.gate, fl.cs)
		}
	} else {
		f.ex.recordCrashes(fl.cs, fl.verdicts)
	}
	f.judged(fl.cs, fl.originals, fl.verdicts, fl.mutated)
}

// judged judges one check and counts its verdicts towards the tool's silence, in the order
// drawn: when the validator stopped answering there, nothing after this check is judged, in
// flight or not, wherever the timeouts of the checks in flight fell.
func (f *Stream) judged(cs []corpus.Case, originals []any, verdicts []validator.Verdict, mutated []bool) {
	f.judge(cs, originals, verdicts, mutated)
	if f.ex.silence.observe(verdicts) {
		f.stopped, f.queue = true, nil
	}
}

// Drain judges every check still in flight, in order.
func (f *Stream) Drain() {
	for len(f.queue) > 0 && !f.stopped {
		f.next(false)
	}
}

// crashed is n Crash verdicts for a check whose gate call panicked with p (nil: it ended the
// goroutine).
func crashed(n int, p any) []validator.Verdict {
	detail := "the gate ended the goroutine of the call (runtime.Goexit) without a verdict"
	if p != nil {
		detail = fmt.Sprintf("panic: %v", p)
	}
	out := make([]validator.Verdict, n)
	for i := range out {
		out[i] = validator.Failed(validator.Crash, detail)
	}
	return out
}
