package stdio

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// proc is one process slot of the pool: the children that replace one another after crashes
// and timeouts, the tools they register and the requests given to them.
type proc struct {
	index int

	// Guarded by c.mu.
	cur       *child     // the child taking requests; nil while restarting, broken or closed
	waiting   []*request // requests held for the next child
	tools     []tool.Tool
	toolIndex map[string]int
	load      int // requests given to this slot and not finished yet

	// Warm spares (spares.go), started after the slot's first restart: children that have said
	// hello, ready to take over at the next deaths.
	spares     []*child // ready, oldest first
	warming    int      // spares being started
	sparesWant int      // spares kept ready or warming: 1 after the first restart, more while restarts wait
}

// refillDivisor: a batch blocked on a full window goes on once a quarter of it is free.
const refillDivisor = 4

var errChildDied = errors.New("the validator process died")

// current returns the child of p taking requests, waiting while a restart is under way.
func (c *Client) current(p *proc) (*child, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p.cur == nil && !c.closed && c.broken == "" {
		c.ready.Wait()
	}
	switch {
	case c.closed:
		return nil, errors.New("the validator was closed")
	case c.broken != "":
		return nil, errors.New(c.broken)
	}
	return p.cur, nil
}

// launch starts a child for p and does the hello exchange; it returns "NAME VERSION".
func (c *Client) launch(p *proc) (*child, string, error) {
	ch, err := c.spawn(p)
	if err != nil {
		return nil, "", err
	}
	fail := func(err error) (*child, string, error) {
		c.mu.Lock()
		c.markDead(ch, err.Error())
		c.mu.Unlock()
		ch.kill()
		return nil, "", err
	}
	c.mu.Lock()
	ch.queue = append(ch.queue, outItem{line: []byte(`{"op":"hello","protocol":"toolproof/1"}` + "\n")})
	ch.cond.Signal()
	c.mu.Unlock()
	t := time.NewTimer(max(startTimeout, c.opts.Timeout))
	defer t.Stop()
	var m map[string]any
	select {
	case m = <-ch.hello:
	case <-ch.deadCh:
		c.mu.Lock()
		why := c.startDeath(ch)
		c.mu.Unlock()
		return nil, "", fmt.Errorf("died before answering hello: %s", why)
	case <-t.C:
		return fail(fmt.Errorf("no answer to hello within %v", max(startTimeout, c.opts.Timeout)))
	case <-c.closedCh:
		return fail(errors.New("closed while starting"))
	}
	proto, _ := m["protocol"].(string)
	if proto != Protocol {
		what := "no protocol"
		if p, ok := m["protocol"]; ok {
			what = "protocol " + jsonText(p)
		}
		return fail(fmt.Errorf("answered hello with %s, but toolproof speaks %q", what, Protocol))
	}
	ch.servesTools = m["tools"] == true
	ch.offersFork = m["fork"] == true
	name, _ := m["name"].(string)
	version, _ := m["version"].(string)
	if name == "" {
		name = c.opts.Command[0]
	}
	return ch, strings.TrimSpace(name + " " + version), nil
}

type toolAnswer struct {
	ok     bool
	reason string
}

type toolWaiter struct {
	t      tool.Tool
	record bool // add the tool to the proc's tools when accepted by its current child
	reply  chan toolAnswer
}

// register sends one tool to ch and waits for the answer. With record, an accepted tool is
// remembered (for restarts) while ch is the current child, under the same lock as the answer.
func (c *Client) register(ch *child, t tool.Tool, line []byte, record bool) (toolAnswer, error) {
	w := &toolWaiter{t: t, record: record, reply: make(chan toolAnswer, 1)}
	return ask(c, ch, line, w.reply, func() {
		ch.toolWaiters = append(ch.toolWaiters, w)
		ch.registered[t.Name] = true
	}, func(limit time.Duration) error {
		c.mu.Lock()
		if !ch.dead {
			c.abandon(ch, fmt.Sprintf("no answer within %v while compiling tool %q", limit, t.Name))
		}
		c.mu.Unlock()
		return fmt.Errorf("no answer within %v; the validator was restarted", limit)
	})
}

// restart starts a new child for p (or takes the warm spare) and hands it p's waiting requests;
// their tools are registered again first. When that fails, the client is broken: waiting and
// future requests fail with Crash.
func (c *Client) restart(p *proc) {
	defer c.wg.Done()
	c.mu.Lock()
	c.stats.Restarts++
	done := c.takeSpare(p)
	c.mu.Unlock()
	if done {
		return
	}
	ch, _, err := c.launch(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.installStarted(p, ch, err)
}

// installStarted installs ch, the child launch started for p, or, when err says it did not
// start, breaks the client. Called with c.mu held.
func (c *Client) installStarted(p *proc, ch *child, err error) {
	if err == nil && c.closed {
		err = errors.New("closed")
	}
	if err == nil && c.broken != "" {
		err = errors.New("another process of the validator could not be restarted")
	}
	if err == nil && ch.dead {
		err = fmt.Errorf("died right after start: %s", c.startDeath(ch))
	}
	if err != nil {
		if ch != nil && !ch.dead {
			c.markDead(ch, err.Error())
			ch.kill()
		}
		if !c.closed && c.broken == "" {
			c.broken = fmt.Sprintf("the validator %s could not be restarted: %v", c.command, err)
			c.brokenFault = validator.Crash
			c.logLocked("%s", c.broken)
		}
		c.failWaiting(p)
		c.ready.Broadcast()
		return
	}
	c.install(p, ch)
}

// install makes ch the child of p and hands it p's waiting requests (their tools first), then
// starts the warm spares p keeps (spares.go). Called with c.mu held.
func (c *Client) install(p *proc, ch *child) {
	p.cur = ch
	for _, r := range p.waiting {
		ch.take(r)
	}
	clear(p.waiting)
	p.waiting = p.waiting[:0]
	ch.cond.Signal()
	c.ready.Broadcast()
	c.startSpares(p)
}

// failWaiting ends every request waiting for p's next child: the client is closed or broken.
// Called with c.mu held.
func (c *Client) failWaiting(p *proc) {
	if len(p.waiting) == 0 {
		return
	}
	v := c.deadVerdict()
	for _, r := range p.waiting {
		c.finish(r, v)
	}
	clear(p.waiting)
	p.waiting = p.waiting[:0]
}

// deadVerdict is the verdict of a request that cannot be sent any more. Called with c.mu held.
func (c *Client) deadVerdict() validator.Verdict {
	if c.broken != "" {
		return validator.Failed(c.brokenFault, c.broken)
	}
	return validator.Failed(validator.Crash, "the validator was closed")
}

// scheduleRestart starts a restart of p, or fails its waiting requests when closed or broken.
// Called with c.mu held.
func (c *Client) scheduleRestart(p *proc) {
	if c.closed || c.broken != "" {
		c.failWaiting(p)
		return
	}
	c.wg.Add(1)
	go c.restart(p)
}

// startDeath is why ch died while it was starting: how it ended, and the last lines of its
// stderr that were not shown to the user as they came (Options.StderrShown). Called with c.mu
// held, after ch died.
func (c *Client) startDeath(ch *child) string {
	if ch.deathStatus == "" {
		return ch.deathDetail // it did not end by itself: killed, or it could not be started
	}
	lines := ch.tail.lines()
	if c.opts.StderrShown != nil {
		lines = slices.DeleteFunc(lines, c.opts.StderrShown)
	}
	return withStderr(ch.deathStatus, lines)
}

// withStderr is how a process ended, followed by the last lines of its stderr, if any.
func withStderr(how string, lines []string) string {
	if len(lines) == 0 {
		return how
	}
	return how + "; last lines of its stderr:\n" + strings.Join(lines, "\n")
}

// markDead records that ch takes no more messages. Called with c.mu held.
func (c *Client) markDead(ch *child, detail string) {
	if ch.dead {
		return
	}
	ch.dead = true
	ch.deathDetail = detail
	close(ch.deadCh)
	ch.cond.Broadcast()
}

// abandon gives up on a live child (a timeout): its requests, sent or not, wait for the next
// child of its slot, which is started. Called with c.mu held.
func (c *Client) abandon(ch *child, detail string) {
	p := ch.p
	wasCurrent := p.cur == ch
	c.markDead(ch, detail)
	ch.kill()
	if !wasCurrent {
		return
	}
	p.cur = nil
	c.requeue(ch, true)
	c.scheduleRestart(p)
}

// childDied handles the end of ch's stdout: the requests ch had read get Crash with detail, the
// others wait for the next child of its slot, which is started.
func (c *Client) childDied(ch *child, detail string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch.dead {
		return // given up on already, its requests handled
	}
	p := ch.p
	wasCurrent := p.cur == ch
	c.markDead(ch, detail)
	if !wasCurrent {
		return // a child being started: its launcher sees deadCh
	}
	c.cutShort(c.stdoutEnded(ch), detail)
}

// death is the end of a current child, as far as its requests go: the ones it had been sent,
// in the order it got them, and the number of the death.
type death struct {
	number uint64
	sent   []*request
}

// stdoutEnded takes the current child ch out of service the moment its stdout ends: the
// requests not yet sent to it wait for the next child of its slot, which is started now, and
// the ones it had been sent are returned, to end with Crash once the cause is known (cutShort).
// The restart does not wait for the process to exit. Called with c.mu held; ch must be current.
func (c *Client) stdoutEnded(ch *child) death {
	p := ch.p
	p.cur = nil
	c.deaths++
	c.markDead(ch, "its stdout ended")
	// Verdict.Death tells this death from others with the same stderr: the harness groups
	// the calls it cut short by it.
	d := death{number: c.deaths, sent: c.requeue(ch, false)}
	c.scheduleRestart(p)
	return d
}

// cutShort ends the requests a death cut short with Crash and detail. Called with c.mu held.
func (c *Client) cutShort(d death, detail string) {
	v := validator.Failed(validator.Crash, detail)
	v.Death = d.number
	for _, r := range d.sent {
		c.finish(r, v)
	}
}

// requeue moves the requests given to ch to the waiting list of its slot, in the order ch got
// them; with keepSent false, those already written to ch are left out and returned instead, in
// the order they were written. Called with c.mu held.
func (c *Client) requeue(ch *child, keepSent bool) []*request {
	var sent []*request
	for _, r := range c.pending {
		if r.child == ch && r.sent {
			sent = append(sent, r)
		}
	}
	slices.SortFunc(sent, func(a, b *request) int { return compareUint(a.seq, b.seq) })
	var moved []*request
	if keepSent {
		moved, sent = sent, nil
	}
	for _, it := range ch.queue {
		if it.req != nil && it.req.child == ch && !it.req.finished {
			moved = append(moved, it.req)
		}
	}
	ch.queue = nil
	for _, r := range moved {
		r.child, r.sent, r.refused = nil, false, ""
	}
	ch.p.waiting = append(ch.p.waiting, moved...)
	return sent
}

func compareUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// watch times out the oldest request written to each current child once its deadline passes.
func (c *Client) watch() {
	defer c.wg.Done()
	tick := min(max(c.opts.Timeout/10, 2*time.Millisecond), 100*time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	oldest := make([]*request, len(c.procs))
	for {
		select {
		case <-c.closedCh:
			return
		case <-t.C:
			c.checkDeadlines(oldest)
		}
	}
}

// checkDeadlines times out the oldest request of each child that has one overdue; oldest is
// scratch space, one entry per proc.
func (c *Client) checkDeadlines(oldest []*request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(oldest)
	for _, r := range c.pending {
		if r.child == nil || !r.sent || r.child != r.proc.cur {
			continue
		}
		if o := oldest[r.proc.index]; o == nil || r.seq < o.seq {
			oldest[r.proc.index] = r
		}
	}
	now := c.clock()
	for i, r := range oldest {
		if r == nil || now < r.deadline {
			continue
		}
		ch := c.procs[i].cur
		c.finish(r, validator.Failed(validator.Timeout,
			fmt.Sprintf("no answer within %v; the validator was restarted", c.opts.Timeout)))
		c.abandon(ch, "timed out")
	}
	clear(oldest)
}
