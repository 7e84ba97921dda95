package stdio

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/procgroup"
	"github.com/toolproof/toolproof/validator"
)

const (
	ioBuffer   = 64 << 10
	tailLines  = 20   // stderr lines kept for crash details
	tailLength = 1000 // longest stderr line kept, in bytes
	exitGrace  = 250 * time.Millisecond
)

// child is one run of the validator process.
type child struct {
	c      *Client
	p      *proc // the slot it serves
	proc   process
	stdin  *os.File
	stdout *os.File
	stderr *os.File
	w      *bufio.Writer

	// Guarded by c.mu.
	queue       []outItem // lines the sender has not taken yet
	cond        *sync.Cond
	seq         uint64 // order in which requests were taken for writing
	dead        bool   // takes no more messages; its requests are handled
	closing     bool   // the sender closes stdin once the queue is empty
	toolWaiters []*toolWaiter
	registered  map[string]bool   // tools sent to this child (a restarted child gets them as needed)
	refused     map[string]string // tools sent lazily that this child refused, with the reason (lazy.go)
	listWaiters []chan []byte     // Tools calls waiting for a "tools" answer, oldest first
	deathDetail string            // set before deadCh is closed
	deathStatus string            // how the process ended by itself, without its stderr; under c.mu
	servesTools bool              // its hello said "tools": true (set by launch)
	offersFork  bool              // its hello said "fork": true (set by launch)

	deadCh     chan struct{}       // closed when dead is set
	hello      chan map[string]any // the hello answer
	exited     chan struct{}       // closed when the process has been waited for
	exitErr    error               // set before exited is closed
	readerDone chan struct{}       // closed when stdout reached its end
	stderrDone chan struct{}       // closed when stderr reached its end
	stdinOnce  sync.Once
	wrote      atomic.Int64 // c.clock when lines were last flushed to it
	heard      atomic.Int64 // c.clock when it last wrote a line
	tail       tail
	intern     interner // used by the reader only
}

// outItem is one line for the child; req is set for validate requests.
type outItem struct {
	req  *request
	line []byte
}

// spawn starts a process for p (forked by the fork server when there is one, else anew) and
// the goroutines that serve it.
func (c *Client) spawn(p *proc) (*child, error) {
	pr, ends, err := c.startProcess()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	ch := &child{
		registered: map[string]bool{},
		c:          c,
		p:          p,
		proc:       pr,
		stdin:      ends.stdin,
		stdout:     ends.stdout,
		stderr:     ends.stderr,
		w:          bufio.NewWriterSize(ends.stdin, ioBuffer),
		cond:       sync.NewCond(&c.mu),
		deadCh:     make(chan struct{}),
		hello:      make(chan map[string]any, 1),
		exited:     make(chan struct{}),
		readerDone: make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	c.mu.Unlock()
	c.wg.Add(4)
	go ch.wait()
	go ch.copyStderr()
	go ch.send()
	go ch.read()
	return ch, nil
}

// kill ends the process (and its process group where there is one).
func (ch *child) kill() {
	select {
	case <-ch.exited:
		return
	default:
	}
	ch.proc.kill()
}

func (ch *child) closeStdin() {
	ch.stdinOnce.Do(func() { ch.stdin.Close() })
}

// wait reaps the process, then makes sure no goroutine stays blocked on a pipe that a
// grandchild may still hold open.
func (ch *child) wait() {
	defer ch.c.wg.Done()
	ch.exitErr = ch.proc.wait()
	// What the process started in its group dies with it: a child that holds stdout open
	// would leave the reader waiting, and outlive the run.
	procgroup.KillGroup(ch.proc.pid())
	close(ch.exited)
	ch.closeStdin() // a sender blocked on a full pipe returns
	closeLate := func(done chan struct{}, f *os.File) {
		t := time.NewTimer(time.Second)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			f.Close()
		}
	}
	closeLate(ch.readerDone, ch.stdout)
	closeLate(ch.stderrDone, ch.stderr)
}

// send writes queued lines, flushing whenever nothing more is queued.
func (ch *child) send() {
	c := ch.c
	defer c.wg.Done()
	defer ch.closeStdin()
	var items []outItem
	for {
		c.mu.Lock()
		for len(ch.queue) == 0 && !ch.dead && !ch.closing {
			ch.cond.Wait()
		}
		if ch.dead || len(ch.queue) == 0 {
			c.mu.Unlock()
			return // dead, or closing with everything written
		}
		items, ch.queue = ch.queue, items[:0]
		deadline := c.clock() + c.opts.Timeout
		kept := items[:0]
		for _, it := range items {
			if r := it.req; r != nil {
				if r.finished {
					continue // answered already (a nonsense result with a guessed id)
				}
				if r.batch.abandoned {
					// Its caller gave up (cancelled): not written, so that it costs the
					// validator no work and no timeout.
					c.finish(r, cancelled())
					continue
				}
				r.sent = true
				r.seq = ch.seq
				ch.seq++
				r.deadline = deadline
			}
			kept = append(kept, it)
		}
		clear(items[len(kept):])
		items = kept
		c.mu.Unlock()
		for _, it := range items {
			if _, err := ch.w.Write(it.line); err != nil {
				ch.kill() // it no longer reads: its stdout ends and its requests crash
				return
			}
		}
		clear(items)
		c.mu.Lock()
		more := len(ch.queue) > 0
		c.mu.Unlock()
		if !more {
			ch.wrote.Store(int64(c.clock())) // before the answers can come
			if err := ch.w.Flush(); err != nil {
				ch.kill()
				return
			}
		}
	}
}

// read handles the child's stdout line by line; at its end it reports the death of the child.
// Results read by the fast path are delivered together, under one lock, once no whole line is
// left in the read buffer.
func (ch *child) read() {
	c := ch.c
	defer c.wg.Done()
	r := bufio.NewReaderSize(ch.stdout, ioBuffer)
	var buf []byte
	var got []delivery
	for {
		line, long, err := readLine(r, &buf)
		if tl, ok := err.(errLineTooLong); ok {
			c.stray(tl.Error()+", dropped", nil)
			err = tl.err
		}
		if err != nil && len(line) > 0 && line[len(line)-1] != '\n' {
			// The last line was cut off when the process ended: not an answer (the requests it
			// may have been for are cut short by the death, and judged as such).
			c.stray("a line cut off when the process ended", line)
			line = nil
		}
		if len(line) > 0 {
			ch.heard.Store(int64(c.clock()))
			got = ch.handleLine(line, got)
		}
		// The lines in got stay valid while the reader does not refill its buffer, that is while
		// it holds a whole line; a long line lives in buf, reused by the next long line.
		if len(got) > 0 && (long || err != nil || len(got) >= maxDeliveries || !wholeLineBuffered(r)) {
			got = c.deliverAll(ch, got)
		}
		if cap(buf) > 1<<20 {
			buf = nil // do not keep a huge line's buffer
		}
		if err != nil {
			break
		}
	}
	close(ch.readerDone)
	ch.stdout.Close()

	// A current child is replaced at once: its unsent requests go to the next child while the
	// cause of this death is found out, and only the requests it had been sent wait for it.
	var d death
	taken := false
	c.mu.Lock()
	if !ch.dead && ch.p.cur == ch {
		d, taken = c.stdoutEnded(ch), true
	}
	c.mu.Unlock()

	// Find out why: exit status and the last stderr lines.
	how := ""
	select {
	case <-ch.exited:
	case <-time.After(exitGrace):
		c.mu.Lock()
		dead := ch.dead
		c.mu.Unlock()
		if taken || !dead {
			how = "closed its stdout and was killed"
		}
		ch.kill()
		<-ch.exited
	}
	select {
	case <-ch.stderrDone:
	case <-time.After(exitGrace):
	}
	status := "exit status 0"
	if ch.exitErr != nil {
		status = ch.exitErr.Error()
	}
	var detail string
	if how != "" {
		detail = "the validator process " + how + " (" + status + ")"
	} else {
		detail = "the validator process ended (" + status + ")"
	}
	c.mu.Lock()
	ch.deathStatus = detail
	c.mu.Unlock()
	detail = withStderr(detail, ch.tail.lines())
	if !taken {
		c.childDied(ch, detail)
		return
	}
	c.mu.Lock()
	c.cutShort(d, detail)
	c.mu.Unlock()
}

// readLine returns the next line, however long. A line longer than the reader's buffer is
// collected in *buf (long); it is valid until the next long line. Any other line is valid until
// the reader refills its buffer.
func readLine(r *bufio.Reader, buf *[]byte) (line []byte, long bool, err error) {
	line, err = r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, false, err
	}
	b := append((*buf)[:0], line...)
	for {
		line, err = r.ReadSlice('\n')
		if len(b)+len(line) > MaxLineSize {
			// Too long to be an answer: the rest of the line is read and dropped, so memory
			// stays bounded whatever the process writes.
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			*buf = b[:0]
			return nil, true, errLineTooLong{err}
		}
		b = append(b, line...)
		if err != bufio.ErrBufferFull {
			*buf = b
			return b, true, err
		}
	}
}

// MaxLineSize is the longest line read from a validator process, in bytes: a longer one is
// dropped (a stray line saying so), and the call it may answer gets no verdict.
const MaxLineSize = 16 << 20

// errLineTooLong is readLine's error for a line over MaxLineSize; err is the read's own error
// after it (nil, or the end of the stream).
type errLineTooLong struct{ err error }

func (e errLineTooLong) Error() string {
	return fmt.Sprintf("a line longer than %d bytes (stdio.MaxLineSize)", MaxLineSize)
}

// wholeLineBuffered says whether r holds a whole line, which it returns without reading.
func wholeLineBuffered(r *bufio.Reader) bool {
	n := r.Buffered()
	if n == 0 {
		return false
	}
	b, _ := r.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// maxDeliveries bounds the results held before delivery.
const maxDeliveries = 256

// delivery is a result read by the fast path, not yet delivered.
type delivery struct {
	id   uint64
	v    validator.Verdict
	line []byte // for the log when nobody waits for it
}

// trimLine drops the line end and reports whether anything but white space is left.
func trimLine(line []byte) ([]byte, bool) {
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	if len(line) > 0 && line[0] == '{' {
		return line, true
	}
	return line, len(bytes.TrimSpace(line)) > 0
}

// handleLine routes one line from stdout. A common result is added to got, to be delivered by
// deliverAll; anything else is handled at once, after the results in got.
func (ch *child) handleLine(line []byte, got []delivery) []delivery {
	c := ch.c
	line, ok := trimLine(line)
	if !ok {
		return got
	}
	if id, v, ok := fastResultIn(line, &ch.intern); ok {
		return append(got, delivery{id: id, v: v, line: line})
	}
	if len(got) > 0 {
		got = c.deliverAll(ch, got)
	}
	ch.handleOther(line)
	return got
}

// handleOther handles a line that is not a common result.
func (ch *child) handleOther(line []byte) {
	c := ch.c
	v, err := jsonvalue.Parse(line)
	if err != nil {
		if id, ok := scanID(line); ok && c.attribute(ch, id, "a line that is not JSON ("+err.Error()+")") {
			return
		}
		c.stray("not JSON: "+err.Error(), line)
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		c.stray("not a JSON object", line)
		return
	}
	op, _ := m["op"].(string)
	switch op {
	case "result":
		id, ok := readID(m["id"])
		if !ok {
			c.stray("a result without a usable id", line)
			return
		}
		if !c.deliver(ch, id, c.opts.Wording.Reread(verdictOf(m))) {
			c.stray("a result for an unknown id", line)
		}
	case "hello":
		select {
		case ch.hello <- m:
		default:
			c.stray("a second hello", line)
		}
	case "tool":
		if !c.toolAnswered(ch, m) {
			c.stray("a tool answer nobody waits for", line)
		}
	case "tools":
		if !c.toolListAnswered(ch, line) {
			c.stray("a tools answer nobody asked for", line)
		}
	default:
		why := "no op"
		if _, has := m["op"]; has {
			why = "unknown op " + jsonText(m["op"])
		}
		if id, ok := readID(m["id"]); ok && c.attribute(ch, id, "a message with "+why) {
			return
		}
		c.stray(why, line)
	}
}

// scanID finds `"id":N` in a line that looks like a broken JSON object.
func scanID(line []byte) (uint64, bool) {
	s := bytes.TrimSpace(line)
	if len(s) == 0 || s[0] != '{' {
		return 0, false
	}
	i := bytes.Index(s, []byte(`"id"`))
	if i < 0 {
		return 0, false
	}
	s = bytes.TrimLeft(s[i+4:], " \t")
	if len(s) == 0 || s[0] != ':' {
		return 0, false
	}
	s = bytes.TrimLeft(s[1:], " \t")
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	id, err := strconv.ParseUint(string(s[:n]), 10, 64)
	return id, err == nil
}

// jsonText is v as compact JSON, for messages.
func jsonText(v any) string {
	b, err := jsonvalue.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
