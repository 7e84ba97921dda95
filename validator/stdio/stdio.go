// Package stdio runs a validator written in any language as a child process that speaks the
// toolproof/1 protocol (PROTOCOL.md in this directory): newline-delimited JSON on the child's
// stdin and stdout, requests pipelined and matched by id. A *Client is a validator.Validator;
// its gates are validator.BatchGates that survive crashes and hangs of the child by restarting
// it, so that every case always gets exactly one verdict.
package stdio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// Protocol is the protocol name a child must answer hello with.
const Protocol = "toolproof/1"

// Defaults for the zero values of Options.
const (
	DefaultWindow  = 64              // requests in flight at once
	DefaultTimeout = 5 * time.Second // per request
)

const (
	// startTimeout bounds hello and tool registration, which include process start-up and
	// schema compilation; it is never shorter than the per-request timeout.
	startTimeout = 10 * time.Second
	// closeGrace is how long Close waits for the child to exit after closing its stdin.
	closeGrace = time.Second
	// maxStrayLogs is how many unattributable lines are logged; all are counted.
	maxStrayLogs = 20
)

// Options says how to run a toolproof/1 child process.
//
// Processes runs that many copies of Command side by side (0 means 1), for validators that use
// one core each, such as Node.js: every tool is registered with each copy, and each request goes
// to the copy with the fewest requests in flight among those running and with room in their
// window. Window is per process: at most Window requests are in flight on each copy, so up to
// Window×Processes in all. Each copy has its own timeouts, crashes and restarts, with the rules of
// PROTOCOL.md (a copy that dies or hangs is restarted with every tool registered again; the
// others go on meanwhile); a copy that cannot be restarted makes the whole Client fail as with
// one process: waiting and later requests get validator.Crash at once. Stats add up all copies.
type Options struct {
	Command   []string      // the program and its arguments (required)
	Dir       string        // working directory of the child; "" is toolproof's own
	Env       []string      // environment of the child as in exec.Cmd.Env; nil is toolproof's own
	Processes int           // how many copies of the child run side by side; 0 means 1
	Window    int           // most requests in flight per process; 0 means DefaultWindow
	Timeout   time.Duration // how long one request may go unanswered; 0 means DefaultTimeout
	Stderr    io.Writer     // gets the children's stderr and the client's notes; nil means os.Stderr
	Name      string        // overrides the "NAME VERSION" the child gives in hello
}

// Stats counts what happened on a Client, for reports and tests.
type Stats struct {
	Requests       int64 // validate requests made
	Verdicts       int64 // requests answered: valid true or false, unclear, not sent, or the gate's own error
	Crashes        int64 // requests that ended with validator.Crash
	Timeouts       int64 // requests that ended with validator.Timeout (cancellations included)
	ProtocolErrors int64 // requests that ended with validator.ProtocolError
	Restarts       int64 // children started after the first ones (one per process)
	StrayLines     int64 // lines from the child that could not be tied to any request
}

// RefusedError is the error Compile returns when the child answers a tool with ok:false: the
// validator cannot use the tool's schema, so toolproof skips the tool and shows Reason.
type RefusedError struct {
	Tool   string // the tool name
	Reason string // the child's error text
}

// Error says which tool was refused and why.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("the validator refused tool %q: %s", e.Tool, e.Reason)
}

// Client is a running toolproof/1 child, or several (Options.Processes), restarted as needed,
// seen as a validator.Validator. It is safe for concurrent use. Close it when done.
type Client struct {
	opts     Options
	command  string // the command line, for messages
	helloOf  string // "NAME VERSION" from the first hello
	serves   bool   // the first hello said "tools": true (tools.go)
	stderr   *lockedWriter
	procs    []*proc // fixed at Start
	capacity int     // window slots in all: Window × Processes
	refill   int     // free slots a blocked batch waits for, so that writes go out in groups
	nextID   atomic.Uint64
	closedCh chan struct{} // closed by Close
	epoch    time.Time     // c.clock counts from here
	wg       sync.WaitGroup

	iso isolation // the process that runs calls alone, for crash blame

	mu          sync.Mutex
	ready       *sync.Cond // broadcast when a proc's cur or spareBusy, broken or closed change
	pending     map[uint64]*request
	inflight    int           // window slots taken
	waiters     []*slotWaiter // batches waiting for window slots, first come first served
	closed      bool
	broken      string // non-empty: no child can be run any more, and why
	brokenFault validator.Fault
	stats       Stats
	deaths      uint64 // children that died while taking requests (the last one's number)
}

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

	// A warm spare, started after the slot's first restart: a child that has said hello, ready
	// to take over at the next death.
	spare     *child
	spareBusy bool // a spare is being started
}

// Start runs opts.Command (opts.Processes copies of it), says hello and checks that the child
// speaks toolproof/1. The error names the command and, when the child died, its exit status and
// last stderr lines.
func Start(opts Options) (*Client, error) {
	if len(opts.Command) == 0 || opts.Command[0] == "" {
		return nil, errors.New("stdio: no validator command given")
	}
	if opts.Processes <= 0 {
		opts.Processes = 1
	}
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	c := &Client{
		opts:     opts,
		command:  commandString(opts.Command),
		stderr:   &lockedWriter{w: opts.Stderr},
		capacity: opts.Window * opts.Processes,
		closedCh: make(chan struct{}),
		epoch:    time.Now(),
		pending:  map[uint64]*request{},
	}
	c.refill = max(1, c.capacity/refillDivisor)
	c.ready = sync.NewCond(&c.mu)
	c.procs = make([]*proc, opts.Processes)
	for i := range c.procs {
		c.procs[i] = &proc{index: i, toolIndex: map[string]int{}}
	}

	children := make([]*child, len(c.procs))
	hellos := make([]string, len(c.procs))
	errs := make([]error, len(c.procs))
	startOne := func(i int) {
		children[i], hellos[i], errs[i] = c.launch(c.procs[i])
		if errs[i] != nil {
			return
		}
		c.mu.Lock()
		if ch := children[i]; ch.dead {
			errs[i] = fmt.Errorf("died right after hello: %s", ch.deathDetail)
		}
		c.mu.Unlock()
	}
	if len(c.procs) == 1 {
		startOne(0)
	} else {
		var wg sync.WaitGroup
		for i := range c.procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				startOne(i)
			}()
		}
		wg.Wait()
	}
	for i, err := range errs {
		if err == nil {
			continue
		}
		c.mu.Lock()
		for _, ch := range children {
			if ch != nil {
				c.markDead(ch, "start failed")
			}
		}
		c.mu.Unlock()
		for _, ch := range children {
			if ch != nil {
				ch.kill()
			}
		}
		close(c.closedCh)
		c.wg.Wait()
		if len(c.procs) > 1 {
			return nil, fmt.Errorf("validator %s (process %d of %d): %w", c.command, i+1, len(c.procs), err)
		}
		return nil, fmt.Errorf("validator %s: %w", c.command, err)
	}
	c.helloOf = hellos[0]
	c.serves = children[0].servesTools
	c.mu.Lock()
	for i, p := range c.procs {
		p.cur = children[i]
	}
	c.mu.Unlock()
	c.wg.Add(1)
	go c.watch()
	return c, nil
}

// clock is the monotonic time since Start.
func (c *Client) clock() time.Duration { return time.Since(c.epoch) }

// refillDivisor: a batch blocked on a full window goes on once a quarter of it is free.
const refillDivisor = 4

// Name is "NAME VERSION" as the child said in hello, or Options.Name when given.
func (c *Client) Name() string {
	if c.opts.Name != "" {
		return c.opts.Name
	}
	return c.helloOf
}

// Compile registers t with the child (a "tool" message; with each child when there are several)
// and waits for the answer. A refusal (ok:false) is a *RefusedError carrying the child's reason.
func (c *Client) Compile(t tool.Tool) (validator.Gate, error) {
	line, err := toolLine(t)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %v", t.Name, err)
	}
	if len(c.procs) == 1 {
		if err := c.compileOn(c.procs[0], t, line); err != nil {
			return nil, err
		}
		return newGate(c, t.Name), nil
	}
	errs := make([]error, len(c.procs))
	var wg sync.WaitGroup
	for i, p := range c.procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.compileOn(p, t, line)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return newGate(c, t.Name), nil
}

// compileOn registers t with the child of p, again on its next child when it dies meanwhile.
func (c *Client) compileOn(p *proc, t tool.Tool, line []byte) error {
	const attempts = 3
	for i := 0; i < attempts; i++ {
		ch, err := c.current(p)
		if err != nil {
			return err
		}
		ans, err := c.register(ch, t, line, true)
		if errors.Is(err, errChildDied) {
			continue // a restart is under way; register on the new child
		}
		if err != nil {
			return fmt.Errorf("registering tool %q: %w", t.Name, err)
		}
		if !ans.ok {
			return &RefusedError{Tool: t.Name, Reason: ans.reason}
		}
		return nil
	}
	return fmt.Errorf("registering tool %q: the validator died %d times while compiling it", t.Name, attempts)
}

// Close closes the children's stdin, waits up to a second for them to exit, then kills them.
// Requests still in flight end with validator.Crash; later ones fail at once. The error says
// whether a child had to be killed or exited with a non-zero status.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.closedCh)
	var children []*child
	for _, p := range c.procs {
		for _, ch := range []*child{p.cur, p.spare} {
			if ch != nil && !ch.dead {
				ch.closing = true
				ch.cond.Broadcast()
				children = append(children, ch)
			}
		}
	}
	c.ready.Broadcast()
	c.mu.Unlock()

	var errs []error
	t := time.NewTimer(closeGrace)
	late := false
	for _, ch := range children {
		if !late {
			select {
			case <-ch.exited:
			case <-t.C:
				late = true
			}
		}
		if late {
			select {
			case <-ch.exited:
			default:
				ch.kill()
				errs = append(errs, fmt.Errorf("validator %s still running %v after its stdin was closed; killed", c.command, closeGrace))
				continue
			}
		}
		if ch.exitErr != nil {
			errs = append(errs, fmt.Errorf("validator %s exited with %v", c.command, ch.exitErr))
		}
	}
	t.Stop()
	c.wg.Wait()
	if err := c.iso.close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Stats returns the counts so far.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

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
		return nil, "", fmt.Errorf("died before answering hello: %s", ch.deathDetail)
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
	c.mu.Lock()
	if ch.dead {
		c.mu.Unlock()
		return toolAnswer{}, errChildDied
	}
	ch.toolWaiters = append(ch.toolWaiters, w)
	ch.registered[t.Name] = true
	ch.queue = append(ch.queue, outItem{line: line})
	ch.cond.Signal()
	c.mu.Unlock()
	limit := max(startTimeout, c.opts.Timeout)
	tm := time.NewTimer(limit)
	defer tm.Stop()
	select {
	case ans := <-w.reply:
		return ans, nil
	case <-ch.deadCh:
		return toolAnswer{}, errChildDied
	case <-c.closedCh:
		return toolAnswer{}, errors.New("the validator was closed")
	case <-tm.C:
		c.mu.Lock()
		if !ch.dead {
			c.abandon(ch, fmt.Sprintf("no answer within %v while compiling tool %q", limit, t.Name))
		}
		c.mu.Unlock()
		return toolAnswer{}, fmt.Errorf("no answer within %v; the validator was restarted", limit)
	}
}

// restart starts a new child for p (or takes the warm spare) and hands it p's waiting requests;
// their tools are registered again first. When that fails, the client is broken: waiting and
// future requests fail with Crash.
func (c *Client) restart(p *proc) {
	defer c.wg.Done()
	c.mu.Lock()
	c.stats.Restarts++
	c.mu.Unlock()

	// The warm spare takes over when it is alive. Tools are registered again as their calls
	// come (child.take), so a restart costs a start and a hello, whatever the number of tools;
	// the tools of the calls held for the new child go first, as the protocol orders. A spare
	// on its way is waited for: it is further along than a process started now, and its start
	// is bounded by the start timeout.
	c.mu.Lock()
	for p.spareBusy && !c.closed && c.broken == "" {
		c.ready.Wait()
	}
	if c.closed || c.broken != "" {
		// Nothing more is started: the spare, if any, is ended and the held requests fail.
		if sp := p.spare; sp != nil && !sp.dead {
			c.markDead(sp, "spare not used")
			sp.kill()
		}
		p.spare = nil
		c.failWaiting(p)
		c.ready.Broadcast()
		c.mu.Unlock()
		return
	}
	if sp := p.spare; sp != nil && !sp.dead {
		select {
		case <-sp.readerDone:
			// Its stdout has ended: its reader is finding out why, but it can answer nothing.
			c.markDead(sp, "its stdout ended while it was the spare")
		default:
			// Taken and installed under one lock: a spare cannot die in between unnoticed.
			p.spare = nil
			c.install(p, sp)
			c.mu.Unlock()
			return
		}
	}
	p.spare = nil
	c.mu.Unlock()
	ch, _, err := c.launch(p)

	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && c.closed {
		err = errors.New("closed")
	}
	if err == nil && c.broken != "" {
		err = errors.New("another process of the validator could not be restarted")
	}
	if err == nil && ch.dead {
		err = fmt.Errorf("died right after start: %s", ch.deathDetail)
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
// starts a warm spare. Called with c.mu held.
func (c *Client) install(p *proc, ch *child) {
	p.cur = ch
	for _, r := range p.waiting {
		ch.take(r)
	}
	clear(p.waiting)
	p.waiting = p.waiting[:0]
	ch.cond.Signal()
	c.ready.Broadcast()
	c.startSpare(p)
}

// startSpare starts a warm spare for p in the background, unless one is there or on its way.
// Called with c.mu held.
func (c *Client) startSpare(p *proc) {
	if c.closed || c.broken != "" || p.spareBusy || (p.spare != nil && !p.spare.dead) {
		return
	}
	p.spareBusy = true
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ch, _, err := c.launch(p)
		c.mu.Lock()
		defer c.mu.Unlock()
		p.spareBusy = false
		c.ready.Broadcast() // a restart may be waiting for it
		if err != nil || c.closed || ch.dead {
			if ch != nil && !ch.dead {
				c.markDead(ch, "spare not used")
				ch.kill()
			}
			return
		}
		p.spare = ch
	}()
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
		r.child, r.sent = nil, false
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

// logf writes a note to Stderr. It must not be called with c.mu held.
func (c *Client) logf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "toolproof: validator %s: %s\n", c.command, fmt.Sprintf(format, args...))
}

// logLocked is logf for callers holding c.mu: the write happens on another goroutine so that
// a slow Stderr never blocks the client.
func (c *Client) logLocked(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.logf("%s", msg)
	}()
}

// stray counts a line that could not be tied to a request and logs the first few.
func (c *Client) stray(why string, line []byte) {
	c.mu.Lock()
	c.stats.StrayLines++
	n := c.stats.StrayLines
	c.mu.Unlock()
	switch {
	case n <= maxStrayLogs:
		c.logf("ignored a line on stdout (%s): %s", why, excerpt(line))
	case n == maxStrayLogs+1:
		c.logf("ignored a line on stdout (%s); further ignored lines are counted, not shown", why)
	}
}

func excerpt(line []byte) string {
	const limit = 120
	if len(line) > limit {
		return strconv.Quote(string(line[:limit])) + fmt.Sprintf("... (%d bytes)", len(line))
	}
	return strconv.Quote(string(line))
}

func commandString(cmd []string) string {
	var b strings.Builder
	for i, w := range cmd {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`") {
			b.WriteString(w)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(w, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

// lockedWriter serialises writes to the Stderr of Options.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// cancelled is the verdict of a request whose context ended first.
func cancelled() validator.Verdict { return validator.Failed(validator.Timeout, "cancelled") }
