package stdio

import "runtime"

// Warm spares: after a slot's first restart, children are started ahead of need, so that the
// next death is met by a child that has said hello already. One is kept at first; each restart
// that finds none ready (the deaths come faster than a start) doubles the number kept, ready or
// starting, so that starts overlap rather than follow one another; a restart that leaves one
// ready halves it. A client holds at most SpareLimit spares in all. Every spare is ended by
// Close.

// SpareLimit is the most warm spares a Client holds at once, ready or starting: one a core,
// from 2 to 4. Each may be started and never used: a run costs at most that many starts more
// than its deaths need.
func SpareLimit() int { return min(max(2, runtime.NumCPU()), 4) }

// takeSpare installs one of p's warm spares, waiting for one that is starting when none is
// ready, or ends p's waiting requests when the client is closed or broken; it reports whether
// the restart is done. Tools are registered again as their calls come (child.take), so a
// restart costs a start and a hello, whatever the number of tools; the tools of the calls held
// for the new child go first, as the protocol orders. A spare on its way is waited for: it is
// further along than a process started now, and its start is bounded by the start timeout.
// Called with c.mu held.
func (c *Client) takeSpare(p *proc) bool {
	waited := p.sparesWant > 0 && len(p.spares) == 0
	for {
		if c.closed || c.broken != "" {
			// Nothing more is started: the spares are ended and the held requests fail.
			c.dropSpares(p)
			c.failWaiting(p)
			c.ready.Broadcast()
			return true
		}
		if sp := c.popSpare(p); sp != nil {
			c.growSpares(p, waited)
			if len(p.spares) > 0 {
				p.sparesWant = max(1, p.sparesWant/2) // the deaths come slower than starts
			}
			// Taken and installed under one lock: a spare cannot die in between unnoticed.
			c.install(p, sp)
			return true
		}
		if p.warming == 0 {
			c.growSpares(p, waited)
			return false
		}
		waited = true
		c.ready.Wait()
	}
}

// growSpares sets how many spares p keeps: one after its first restart, twice as many (up to
// the limit) after a restart that found none ready. Called with c.mu held.
func (c *Client) growSpares(p *proc, waited bool) {
	switch {
	case p.sparesWant == 0:
		p.sparesWant = 1
	case waited:
		p.sparesWant = min(2*p.sparesWant, c.spareLimit)
	}
}

// popSpare takes p's oldest ready spare that can still answer; nil when there is none. A spare
// whose stdout has ended is dropped (its reader finds out why). Called with c.mu held.
func (c *Client) popSpare(p *proc) *child {
	for len(p.spares) > 0 {
		sp := p.spares[0]
		p.spares[0] = nil
		p.spares = p.spares[1:]
		if sp.dead {
			continue
		}
		select {
		case <-sp.readerDone:
			c.markDead(sp, "its stdout ended while it was a spare")
		default:
			return sp
		}
	}
	return nil
}

// dropSpares ends p's ready spares. Called with c.mu held.
func (c *Client) dropSpares(p *proc) {
	for _, sp := range p.spares {
		if !sp.dead {
			c.markDead(sp, "spare not used")
			sp.kill()
		}
	}
	clear(p.spares)
	p.spares = p.spares[:0]
}

// startSpares starts spares for p in the background until p has as many ready or starting as
// it keeps, or the client holds c.spareLimit. Called with c.mu held.
func (c *Client) startSpares(p *proc) {
	held := 0
	for _, q := range c.procs {
		held += len(q.spares) + q.warming
	}
	for ; !c.closed && c.broken == "" && len(p.spares)+p.warming < p.sparesWant && held < c.spareLimit; held++ {
		p.warming++
		c.wg.Add(1)
		go c.warmSpare(p)
	}
}

// warmSpare starts one spare for p and adds it to p's ready spares once it has said hello.
func (c *Client) warmSpare(p *proc) {
	defer c.wg.Done()
	ch, _, err := c.launch(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	p.warming--
	c.ready.Broadcast() // a restart may be waiting for it
	if err != nil || c.closed || c.broken != "" || ch.dead {
		if ch != nil && !ch.dead {
			c.markDead(ch, "spare not used")
			ch.kill()
		}
		return
	}
	p.spares = append(p.spares, ch)
}
