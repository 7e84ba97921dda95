package stdio

import (
	"errors"
	"time"
)

// ask queues line on ch, with its waiter added by wait (under c.mu), and waits for the reply:
// until ch dies, the client is closed, or the start timeout passes (late then gives the error).
// Tool registrations and tool lists are asked so.
func ask[T any](c *Client, ch *child, line []byte, reply <-chan T, wait func(),
	late func(limit time.Duration) error) (T, error) {
	var zero T
	c.mu.Lock()
	if ch.dead {
		c.mu.Unlock()
		return zero, errChildDied
	}
	wait()
	ch.queue = append(ch.queue, outItem{line: line})
	ch.cond.Signal()
	c.mu.Unlock()
	limit := max(startTimeout, c.opts.Timeout)
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case v := <-reply:
		return v, nil
	case <-ch.deadCh:
		return zero, errChildDied
	case <-c.closedCh:
		return zero, errors.New("the validator was closed")
	case <-t.C:
		return zero, late(limit)
	}
}
