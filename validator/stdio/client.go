package stdio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// Options says how to run a toolproof/1 child process.
//
// Processes runs that many copies of Command side by side (0 means 1), for validators that use
// one core each, such as Node.js: every tool is registered with each copy, and each request goes
// to the copy with the fewest requests in flight among those running and with room in their
// window. Window is per process: at most Window requests are in flight on each copy, so up to
// Window×Processes in all. Each copy has its own timeouts, crashes and restarts, with the rules of
// PROTOCOL.md (a copy that dies or hangs is restarted, each tool sent again just before its
// first call there; the others go on meanwhile); a copy that cannot be restarted makes the whole Client fail as with
// one process: waiting and later requests get validator.Crash at once. Stats add up all copies.
type Options struct {
	Command   []string      // the program and its arguments (required)
	Dir       string        // working directory of the child; "" is toolproof's own
	Env       []string      // environment of the child as in exec.Cmd.Env; nil is toolproof's own
	Processes int           // how many copies of the child run side by side; 0 means 1
	Window    int           // most requests in flight per process; 0: from DefaultWindow up to MaxWindow (window.go)
	Timeout   time.Duration // how long one request may go unanswered; 0 means DefaultTimeout
	Stderr    io.Writer     // gets the children's stderr and the client's notes; nil means os.Stderr
	// StderrShown says whether a line of a child's stderr reaches the user through Stderr as it is
	// written. An error of a process that died while starting quotes only the last lines not
	// shown so: it is printed at once, under those lines. nil: no line is shown.
	StderrShown func(line string) bool
	Name        string // overrides the "NAME VERSION" the child gives in hello
	// Wording rereads the child's unclear error answers in the tool's own words
	// (validator.Wording.Reread): a rejection or a run where its patterns match.
	Wording validator.Wording
}

// Stats counts what happened on a Client, for reports and tests.
type Stats struct {
	Requests       int64 // validate requests made
	Verdicts       int64 // requests answered: valid true or false, unclear, not sent, or the gate's own error
	Crashes        int64 // requests that ended with validator.Crash
	Timeouts       int64 // requests that ended with validator.Timeout (cancellations included)
	ProtocolErrors int64 // requests that ended with validator.ProtocolError
	Restarts       int64 // children started after the first ones (one per process)
	Forks          int64 // children forked by the validator's fork server (PROTOCOL.md) rather than started anew
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

// The capabilities a Client, a ToolServer and their gates have, checked by the compiler.
var (
	_ validator.Validator  = (*Client)(nil)
	_ validator.Closer     = (*Client)(nil)
	_ validator.ToolSource = ToolServer{}
	_ validator.BatchGate  = (*gate)(nil)
	_ validator.Isolator   = (*gate)(nil)
)

// Client is a running toolproof/1 child, or several (Options.Processes), restarted as needed,
// seen as a validator.Validator. It is safe for concurrent use. Close it when done.
type Client struct {
	opts     Options
	command  string // the command line, for messages
	helloOf  string // "NAME VERSION" from the first hello
	serves   bool   // the first hello said "tools": true (tools.go)
	stderr   *lockedWriter
	procs    []*proc // fixed at Start
	nextID   atomic.Uint64
	closedCh chan struct{} // closed by Close
	epoch    time.Time     // c.clock counts from here
	wg       sync.WaitGroup
	// closeGrace is how long Close waits for the children to exit (the constant closeGrace;
	// the tests shorten it).
	closeGrace time.Duration

	iso       isolation // the process that runs calls alone, for crash blame
	forks     *forking  // the fork server, shared with iso's client (forking.go)
	ownsForks bool      // this client started forks, and closes it

	spareLimit int // the most warm spares the client holds at once (spares.go)

	mu          sync.Mutex
	ready       *sync.Cond // broadcast when a proc's cur or spares, broken or closed change
	pending     map[uint64]*request
	win         window        // the window of requests in flight (window.go)
	inflight    int           // window slots taken
	waiters     []*slotWaiter // batches waiting for window slots, first come first served
	closed      bool
	broken      string // non-empty: no child can be run any more, and why
	brokenFault validator.Fault
	stats       Stats
	deaths      uint64 // children that died while taking requests (the last one's number)
}

// Start runs opts.Command (opts.Processes copies of it), says hello and checks that the child
// speaks toolproof/1. The error names the command and, when the child died, its exit status and
// last stderr lines.
func Start(opts Options) (*Client, error) {
	return start(opts, nil)
}

// start is Start with the fork server of another client of the same command; nil starts
// anew.
func start(opts Options, forks *forking) (*Client, error) {
	if len(opts.Command) == 0 || opts.Command[0] == "" {
		return nil, errors.New("stdio: no validator command given")
	}
	if opts.Processes <= 0 {
		opts.Processes = 1
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
		win:      newWindow(opts),
		closedCh: make(chan struct{}),
		epoch:    time.Now(),
		pending:  map[uint64]*request{},

		closeGrace: closeGrace,
		spareLimit: SpareLimit(),
		forks:      forks,
	}
	if forks == nil {
		c.forks, c.ownsForks = &forking{}, true
	}
	c.ready = sync.NewCond(&c.mu)
	c.procs = make([]*proc, opts.Processes)
	for i := range c.procs {
		c.procs[i] = &proc{index: i, toolIndex: map[string]int{}}
	}

	children, hellos, err := c.startAll()
	if err != nil {
		return nil, err
	}
	c.helloOf = hellos[0]
	c.serves = children[0].servesTools
	if children[0].offersFork {
		c.forks.offer()
	}
	c.mu.Lock()
	for i, p := range c.procs {
		p.cur = children[i]
	}
	c.mu.Unlock()
	c.wg.Add(1)
	go c.watch()
	return c, nil
}

// startAll starts a child for each process slot, side by side, and waits for their hellos. When
// one fails, every child started is killed and the error names the command (and the process).
func (c *Client) startAll() ([]*child, []string, error) {
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
			errs[i] = fmt.Errorf("died right after hello: %s", c.startDeath(ch))
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
			return nil, nil, fmt.Errorf("validator %s (process %d of %d): %w", c.command, i+1, len(c.procs), err)
		}
		return nil, nil, fmt.Errorf("validator %s: %w", c.command, err)
	}
	return children, hellos, nil
}

// clock is the monotonic time since Start.
func (c *Client) clock() time.Duration { return time.Since(c.epoch) }

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
		for _, ch := range append([]*child{p.cur}, p.spares...) {
			if ch != nil && !ch.dead {
				ch.closing = true
				ch.cond.Broadcast()
				children = append(children, ch)
			}
		}
	}
	c.ready.Broadcast()
	c.mu.Unlock()

	errs := c.awaitExits(children)
	c.wg.Wait()
	if err := c.iso.close(); err != nil {
		errs = append(errs, err)
	}
	if c.ownsForks {
		c.forks.close()
	}
	return errors.Join(errs...)
}

// awaitExits waits for children, whose stdin is being closed, to exit: each is killed when the
// close grace is over, or sooner once it has written nothing for the per-request timeout since
// it was last written to (a process that stopped answering would only make Close wait). The
// errors say which were killed, and which exited with a status other than 0.
func (c *Client) awaitExits(children []*child) []error {
	var errs []error
	grace := time.Now().Add(c.closeGrace)
	tick := time.NewTicker(min(max(c.opts.Timeout/4, 5*time.Millisecond), 100*time.Millisecond))
	defer tick.Stop()
	for _, ch := range children {
		why := ""
		for why == "" {
			select {
			case <-ch.exited:
				why = "exited"
			case <-tick.C:
				switch {
				case c.silentFor(ch) >= c.opts.Timeout:
					why = fmt.Sprintf("validator %s had answered nothing for %v (its timeout) when closed; killed",
						c.command, c.opts.Timeout)
				case time.Now().After(grace):
					why = fmt.Sprintf("validator %s still running %v after its stdin was closed; killed",
						c.command, c.closeGrace)
				}
			}
		}
		switch {
		case why != "exited":
			ch.kill()
			errs = append(errs, errors.New(why))
		case ch.exitErr != nil:
			errs = append(errs, fmt.Errorf("validator %s exited with %v", c.command, ch.exitErr))
		}
	}
	return errs
}

// silentFor is how long ch has written nothing since it was last written to; 0 when it has
// answered since.
func (c *Client) silentFor(ch *child) time.Duration {
	wrote, heard := ch.wrote.Load(), ch.heard.Load()
	if wrote <= heard {
		return 0
	}
	return c.clock() - time.Duration(wrote)
}

// Stats returns the counts so far.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// logf writes a note to Stderr, its control characters escaped (report.EscapeText: a note may
// quote the validator's output). It must not be called with c.mu held.
func (c *Client) logf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "toolproof: validator %s: %s\n", c.command, report.EscapeText(fmt.Sprintf(format, args...)))
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
