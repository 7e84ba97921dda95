package stdio

import (
	"context"
	"testing"
	"time"
)

// TestWindowAdapts checks the sizes an adaptive window takes: it doubles only after batches
// waited for room and an answer came back quickly, halves when an answer came back slowly, stays
// between DefaultWindow and MaxWindow, and a fixed window never changes.
func TestWindowAdapts(t *testing.T) {
	const procs = 2
	c := &Client{opts: Options{Timeout: 64 * time.Second, Processes: procs}, procs: make([]*proc, procs)}
	c.win = newWindow(c.opts)
	want := func(perProc int) {
		t.Helper()
		if c.win.perProc != perProc || c.win.capacity != perProc*procs || c.win.refill != perProc*procs/refillDivisor {
			t.Fatalf("window %+v, want %d a process", c.win, perProc)
		}
	}
	want(DefaultWindow)
	c.adapt(time.Millisecond) // fast, but nobody waited for room
	want(DefaultWindow)
	for size := DefaultWindow * 2; size <= MaxWindow; size *= 2 {
		c.win.starved = true
		c.adapt(time.Millisecond)
		want(size)
	}
	c.win.starved = true
	c.adapt(time.Millisecond)
	want(MaxWindow)
	c.win.starved = true
	c.adapt(2 * time.Second) // neither fast nor slow: kept
	want(MaxWindow)
	c.adapt(5 * time.Second) // slow: a 16th of the timeout is 4s
	want(MaxWindow / 2)
	for range 10 {
		c.adapt(5 * time.Second)
	}
	want(DefaultWindow)
	if c.win.most != MaxWindow*procs {
		t.Errorf("most %d, want %d", c.win.most, MaxWindow*procs)
	}

	fixed := &Client{opts: Options{Timeout: 64 * time.Second, Processes: procs, Window: 8}, procs: make([]*proc, procs)}
	fixed.win = newWindow(fixed.opts)
	fixed.win.starved = true
	fixed.adapt(time.Millisecond)
	fixed.adapt(time.Minute)
	if fixed.win.perProc != 8 || fixed.win.capacity != 16 || fixed.win.most != 16 {
		t.Errorf("fixed window changed: %+v", fixed.win)
	}
}

// TestWindowGrowsOnFastChild checks that a child answering quickly is given more requests in
// flight than DefaultWindow, never more than MaxWindow, and that every case still gets its
// verdict.
func TestWindowGrowsOnFastChild(t *testing.T) {
	c, _ := startFake(t, "correct", 0, Options{Timeout: time.Minute})
	g := compile(t, c, readTool)
	args := cases(20000)
	checkAll(t, args, g.CheckBatch(context.Background(), args), nil)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.win.perProc <= DefaultWindow || c.win.perProc > MaxWindow {
		t.Errorf("window %d a process after 20000 quick answers, want more than %d and at most %d", c.win.perProc,
			DefaultWindow, MaxWindow)
	}
	if c.inflight != 0 || len(c.pending) != 0 {
		t.Errorf("after the batch: %d slots taken, %d pending", c.inflight, len(c.pending))
	}
}
