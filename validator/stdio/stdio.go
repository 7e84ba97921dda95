// Package stdio runs a validator written in any language as a child process that speaks the
// toolproof/1 protocol (PROTOCOL.md in this directory): newline-delimited JSON on the child's
// stdin and stdout, requests pipelined and matched by id. A *Client is a validator.Validator;
// its gates are validator.BatchGates that survive crashes and hangs of the child by restarting
// it, so that every case always gets exactly one verdict.
package stdio

import (
	"context"
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
type Options struct {
	Command []string      // the program and its arguments (required)
	Dir     string        // working directory of the child; "" is toolproof's own
	Env     []string      // environment of the child as in exec.Cmd.Env; nil is toolproof's own
	Window  int           // most requests in flight at once; 0 means DefaultWindow
	Timeout time.Duration // how long one request may go unanswered; 0 means DefaultTimeout
	Stderr  io.Writer     // gets the child's stderr and the client's notes; nil means os.Stderr
	Name    string        // overrides the "NAME VERSION" the child gives in hello
}

// Stats counts what happened on a Client, for reports and tests.
type Stats struct {
	Requests       int64 // validate requests made
	Verdicts       int64 // requests answered with valid true or false
	Crashes        int64 // requests that ended with validator.Crash
	Timeouts       int64 // requests that ended with validator.Timeout (cancellations included)
	ProtocolErrors int64 // requests that ended with validator.ProtocolError
	Restarts       int64 // children started after the first one
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

// Client is a running toolproof/1 child (restarted as needed) seen as a validator.Validator.
// It is safe for concurrent use. Close it when done.
type Client struct {
	opts     Options
	command  string // the command line, for messages
	helloOf  string // "NAME VERSION" from the first hello
	stderr   *lockedWriter
	sem      chan struct{} // one token per request in flight
	nextID   atomic.Uint64
	closedCh chan struct{} // closed by Close
	wg       sync.WaitGroup

	mu          sync.Mutex
	ready       *sync.Cond // broadcast when cur, broken or closed change
	cur         *child     // the child taking requests; nil while restarting, broken or closed
	pending     map[uint64]*request
	waiting     []*request // pending requests held for the next child
	tools       []tool.Tool
	toolIndex   map[string]int
	closed      bool
	broken      string // non-empty: no child can be run any more, and why
	brokenFault validator.Fault
	stats       Stats
}

// Start runs opts.Command, says hello and checks that the child speaks toolproof/1. The error
// names the command and, when the child died, its exit status and last stderr lines.
func Start(opts Options) (*Client, error) {
	if len(opts.Command) == 0 || opts.Command[0] == "" {
		return nil, errors.New("stdio: no validator command given")
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
		opts:      opts,
		command:   commandString(opts.Command),
		stderr:    &lockedWriter{w: opts.Stderr},
		sem:       make(chan struct{}, opts.Window),
		closedCh:  make(chan struct{}),
		pending:   map[uint64]*request{},
		toolIndex: map[string]int{},
	}
	c.ready = sync.NewCond(&c.mu)
	ch, hello, err := c.launch()
	if err != nil {
		close(c.closedCh)
		c.wg.Wait()
		return nil, fmt.Errorf("validator %s: %w", c.command, err)
	}
	c.helloOf = hello
	c.mu.Lock()
	if ch.dead {
		detail := ch.deathDetail
		c.mu.Unlock()
		close(c.closedCh)
		c.wg.Wait()
		return nil, fmt.Errorf("validator %s: died right after hello: %s", c.command, detail)
	}
	c.cur = ch
	c.mu.Unlock()
	c.wg.Add(1)
	go c.watch()
	return c, nil
}

// Name is "NAME VERSION" as the child said in hello, or Options.Name when given.
func (c *Client) Name() string {
	if c.opts.Name != "" {
		return c.opts.Name
	}
	return c.helloOf
}

// Compile registers t with the child (a "tool" message) and waits for its answer. A refusal
// (ok:false) is a *RefusedError carrying the child's reason.
func (c *Client) Compile(t tool.Tool) (validator.Gate, error) {
	line, err := toolLine(t)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %v", t.Name, err)
	}
	const attempts = 3
	for i := 0; i < attempts; i++ {
		ch, err := c.current()
		if err != nil {
			return nil, err
		}
		ans, err := c.register(ch, t, line, true)
		if errors.Is(err, errChildDied) {
			continue // a restart is under way; register on the new child
		}
		if err != nil {
			return nil, fmt.Errorf("registering tool %q: %w", t.Name, err)
		}
		if !ans.ok {
			return nil, &RefusedError{Tool: t.Name, Reason: ans.reason}
		}
		return newGate(c, t.Name), nil
	}
	return nil, fmt.Errorf("registering tool %q: the validator died %d times while compiling it", t.Name, attempts)
}

// Close closes the child's stdin, waits up to a second for it to exit, then kills it. Requests
// still in flight end with validator.Crash; later ones fail at once. The error says whether the
// child had to be killed or exited with a non-zero status.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.closedCh)
	ch := c.cur
	if ch != nil {
		ch.closing = true
		ch.cond.Broadcast()
	}
	c.ready.Broadcast()
	c.mu.Unlock()

	var err error
	if ch != nil {
		t := time.NewTimer(closeGrace)
		select {
		case <-ch.exited:
			if ch.exitErr != nil {
				err = fmt.Errorf("validator %s exited with %v", c.command, ch.exitErr)
			}
		case <-t.C:
			ch.kill()
			err = fmt.Errorf("validator %s still running %v after its stdin was closed; killed", c.command, closeGrace)
		}
		t.Stop()
	}
	c.wg.Wait()
	return err
}

// Stats returns the counts so far.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

var errChildDied = errors.New("the validator process died")

// current returns the child taking requests, waiting while a restart is under way.
func (c *Client) current() (*child, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.cur == nil && !c.closed && c.broken == "" {
		c.ready.Wait()
	}
	switch {
	case c.closed:
		return nil, errors.New("the validator was closed")
	case c.broken != "":
		return nil, errors.New(c.broken)
	}
	return c.cur, nil
}

// launch starts a child and does the hello exchange; it returns "NAME VERSION".
func (c *Client) launch() (*child, string, error) {
	ch, err := c.spawn()
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
	record bool // add the tool to c.tools when accepted by the current child
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

// restart starts a new child, registers every tool again and hands it the waiting requests.
// When that fails, every waiting and future request fails with Crash.
func (c *Client) restart() {
	defer c.wg.Done()
	c.mu.Lock()
	tools := slices.Clone(c.tools)
	c.stats.Restarts++
	c.mu.Unlock()

	ch, _, err := c.launch()
	for _, t := range tools {
		if err != nil {
			break
		}
		var line []byte
		if line, err = toolLine(t); err != nil {
			break
		}
		var ans toolAnswer
		ans, err = c.register(ch, t, line, false)
		if err == nil && !ans.ok {
			err = fmt.Errorf("tool %q, accepted before, is now refused: %s", t.Name, ans.reason)
		}
		if errors.Is(err, errChildDied) {
			err = fmt.Errorf("died while tools were registered again: %s", ch.deathDetail)
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && c.closed {
		err = errors.New("closed")
	}
	if err == nil && ch.dead {
		err = fmt.Errorf("died right after start: %s", ch.deathDetail)
	}
	if err != nil {
		if ch != nil && !ch.dead {
			c.markDead(ch, err.Error())
			ch.kill()
		}
		if !c.closed {
			c.broken = fmt.Sprintf("the validator %s could not be restarted: %v", c.command, err)
			c.brokenFault = validator.Crash
			c.logLocked("%s", c.broken)
		}
		c.failWaiting()
		c.ready.Broadcast()
		return
	}
	c.cur = ch
	for _, r := range c.waiting {
		r.child = ch
		ch.queue = append(ch.queue, outItem{req: r, line: r.line})
	}
	clear(c.waiting)
	c.waiting = c.waiting[:0]
	ch.cond.Signal()
	c.ready.Broadcast()
}

// failWaiting ends every waiting request: the client is closed or broken. Called with c.mu held.
func (c *Client) failWaiting() {
	for _, r := range c.waiting {
		c.finish(r, c.deadVerdict())
	}
	clear(c.waiting)
	c.waiting = c.waiting[:0]
}

// deadVerdict is the verdict of a request that cannot be sent any more. Called with c.mu held.
func (c *Client) deadVerdict() validator.Verdict {
	if c.broken != "" {
		return validator.Failed(c.brokenFault, c.broken)
	}
	return validator.Failed(validator.Crash, "the validator was closed")
}

// scheduleRestart starts a restart, or fails the waiting requests when closed. Called with
// c.mu held.
func (c *Client) scheduleRestart() {
	if c.closed || c.broken != "" {
		c.failWaiting()
		return
	}
	c.wg.Add(1)
	go c.restart()
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
// child, which is started. Called with c.mu held.
func (c *Client) abandon(ch *child, detail string) {
	wasCurrent := c.cur == ch
	c.markDead(ch, detail)
	ch.kill()
	if !wasCurrent {
		return
	}
	c.cur = nil
	c.requeue(ch, false, "")
	c.scheduleRestart()
}

// childDied handles the end of ch's stdout: the requests ch had read get Crash with detail, the
// others wait for the next child, which is started.
func (c *Client) childDied(ch *child, detail string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch.dead {
		return // given up on already, its requests handled
	}
	wasCurrent := c.cur == ch
	c.markDead(ch, detail)
	if !wasCurrent {
		return // a child being started: its launcher sees deadCh
	}
	c.cur = nil
	c.requeue(ch, true, detail)
	c.scheduleRestart()
}

// requeue moves the requests given to ch to c.waiting, in the order ch got them; with crash,
// those already written to ch end with Crash instead. Called with c.mu held.
func (c *Client) requeue(ch *child, crash bool, detail string) {
	var sent []*request
	for _, r := range c.pending {
		if r.child == ch && r.sent {
			sent = append(sent, r)
		}
	}
	slices.SortFunc(sent, func(a, b *request) int { return compareUint(a.seq, b.seq) })
	var moved []*request
	if !crash {
		moved = sent
	} else {
		v := validator.Failed(validator.Crash, detail)
		for _, r := range sent {
			c.finish(r, v)
		}
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
	c.waiting = append(c.waiting, moved...)
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

// watch times out the oldest request written to the current child once its deadline passes.
func (c *Client) watch() {
	defer c.wg.Done()
	tick := min(max(c.opts.Timeout/10, 2*time.Millisecond), 100*time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-c.closedCh:
			return
		case <-t.C:
			c.checkDeadlines()
		}
	}
}

func (c *Client) checkDeadlines() {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.cur
	if ch == nil {
		return
	}
	var oldest *request
	for _, r := range c.pending {
		if r.child == ch && r.sent && (oldest == nil || r.seq < oldest.seq) {
			oldest = r
		}
	}
	if oldest == nil || time.Now().Before(oldest.deadline) {
		return
	}
	c.finish(oldest, validator.Failed(validator.Timeout,
		fmt.Sprintf("no answer within %v; the validator was restarted", c.opts.Timeout)))
	c.abandon(ch, "timed out")
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

// acquire takes a window slot, or reports false when ctx ends first.
func (c *Client) acquire(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case c.sem <- struct{}{}:
		return true
	default:
	}
	done := ctx.Done()
	if done == nil {
		c.sem <- struct{}{}
		return true
	}
	select {
	case c.sem <- struct{}{}:
		return true
	case <-done:
		return false
	}
}
