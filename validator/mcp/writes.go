package mcp

import (
	"errors"
	"io"
	"sync"
	"time"
)

// writeQueue writes message lines to one connection, the lines of the calls sent while a write
// is under way together in the next write: one write (and one read on the server's side) for a
// window of calls rather than one each. A write that outlasts the longest guard of its lines
// calls late (which ends the session, unblocking the write): one timer a write, not one a call.
type writeQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending []byte // lines not yet handed to a write: the next batch
	spare   []byte // a buffer to reuse for pending
	cut     uint64 // batches handed to a write so far
	written uint64 // batches whose write has returned
	writing bool
	err     error         // the error of the latest write
	guard   time.Duration // the longest guard of the pending lines (0: none)
	late    func(d time.Duration)
}

// errWriteLate is the error of a write that outlasted its guard.
var errWriteLate = errors.New("the write outlasted its guard; the session was ended")

// send queues msg and a newline. With wait it returns once the batch holding it is written,
// with the error of that write (or of a later one); without, it returns at once when a write is
// under way (whose goroutine writes msg next: a write goes on while lines are pending), with
// the error of the latest write. guard > 0: the write holding msg may take that long before late
// is called (and a waiting send then fails, even if the write went through).
func (q *writeQueue) send(w io.Writer, msg []byte, guard time.Duration, wait bool) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.cond == nil {
		q.cond = sync.NewCond(&q.mu)
	}
	q.pending = append(append(q.pending, msg...), '\n')
	q.guard = max(q.guard, guard)
	mine := q.cut + 1 // the batch this line goes in: the next one cut
	for q.written < mine {
		if q.writing {
			if !wait {
				return q.err
			}
			q.cond.Wait()
			continue
		}
		q.write(w)
	}
	return q.err
}

// write writes the pending lines as one batch, and again while more are pending: the lines of
// sends that did not wait. Called with q.mu held and no write under way; it unlocks q.mu while
// writing.
func (q *writeQueue) write(w io.Writer) {
	q.writing = true
	for len(q.pending) > 0 {
		buf := q.pending
		q.pending, q.spare = q.spare[:0], nil
		q.cut++
		batch, d := q.cut, q.guard
		q.guard = 0
		var timer *time.Timer
		if d > 0 && q.late != nil {
			timer = time.AfterFunc(d, func() { q.late(d) })
		}
		q.mu.Unlock()
		_, err := w.Write(buf)
		if timer != nil && !timer.Stop() && err == nil {
			err = errWriteLate
		}
		q.mu.Lock()
		if cap(buf) <= maxSpare {
			q.spare = buf[:0]
		}
		q.err, q.written = err, batch
		q.cond.Broadcast()
	}
	q.writing = false
}

// maxSpare is the largest buffer kept for the next batch (a huge argument is not held on to).
const maxSpare = 1 << 20
