package stdio

import "time"

// MaxWindow is the most requests in flight on each process when Options.Window is 0.
const MaxWindow = 1024

// The window of requests in flight on each process. A fixed Options.Window is kept as given.
// With Window 0 it starts at DefaultWindow and follows the process's answers: it doubles, up to
// MaxWindow, when batches had to wait for room and an answer comes back quickly (written less
// than a 64th of the timeout before), so that a fast process is never left waiting for the
// next requests while toolproof waits for its answers; it halves, down to DefaultWindow, when
// an answer comes back after more than a 16th of the timeout, so that a request never waits
// behind so many others that it times out where it would not with DefaultWindow in flight.
type window struct {
	adaptive bool // Options.Window was 0
	perProc  int  // requests in flight on each process at most
	capacity int  // slots in all: perProc × processes
	refill   int  // free slots a blocked batch waits for, so that writes go out in groups
	starved  bool // a batch waited for room since the window last changed
	most     int  // capacity at most, ever: MaxWindow × processes, or the fixed capacity
}

func newWindow(opts Options) window {
	w := window{adaptive: opts.Window <= 0, perProc: opts.Window}
	if w.adaptive {
		w.perProc = DefaultWindow
	}
	w.most = w.perProc * opts.Processes
	if w.adaptive {
		w.most = MaxWindow * opts.Processes
	}
	w.set(w.perProc, opts.Processes)
	return w
}

func (w *window) set(perProc, procs int) {
	w.perProc = perProc
	w.capacity = perProc * procs
	w.refill = max(1, w.capacity/refillDivisor)
	w.starved = false
}

// adapt resizes an adaptive window after an answer that came age after its request was
// written, and hands out the slots a larger window frees. Called with c.mu held.
func (c *Client) adapt(age time.Duration) {
	w := &c.win
	switch {
	case !w.adaptive:
	case age > c.opts.Timeout/16 && w.perProc > DefaultWindow:
		w.set(w.perProc/2, len(c.procs))
	case w.starved && age < c.opts.Timeout/64 && w.perProc < MaxWindow:
		w.set(w.perProc*2, len(c.procs))
		c.grant()
	}
}
