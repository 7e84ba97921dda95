package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/toolproof/toolproof/harness/report"
)

// A Conn is one session's byte streams to an MCP server: the client writes newline-delimited
// JSON-RPC messages to it and reads the server's from it. Close ends the session (for a process:
// closes its stdin, waits a moment, kills it) and makes Read return.
type Conn interface {
	io.Reader
	io.Writer
	Close() error
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// response is what came back for one request: a result, an error, or (bad) a line that names
// the request but makes no sense. ambiguous: an error with "id": null came while other calls
// were in flight too, so it answers one of them, no one knows which: send the call again alone.
// Fault, over HTTP: the server failed this request itself (an HTTP 500 without a JSON-RPC
// answer), which a POST of its own blames exactly.
// Fault and stray are transport faults: a tools/call that meets one is sent again before its
// verdict is given (Client.send).
// Refused, over HTTP: a 4xx status without a JSON-RPC answer (the server would not read the
// request: a body too deep or too large for its reader), which is a rejection.
type response struct {
	Result json.RawMessage
	// call is the result of a tools/call read as a CallToolResult while the line was decoded
	// (Result is then empty): each answer is decoded once.
	call    *callResult
	Error   *rpcError
	Bad     string
	Fault   string
	Refused string
	// status, over HTTP: the status code the answer came with (a JSON-RPC error on a 5xx is an
	// exception: answerReader.read).
	status    int
	ambiguous bool
	// stray, over HTTP: the answer names another request's id, so it is not this request's
	// (Bad says so); a tools/call is sent again (Client.send).
	stray bool
}

// outcome says how a call on a session ended.
type outcome int

const (
	answered    outcome = iota // a response (maybe Bad)
	timedOut                   // no response within the timeout
	cancelled                  // the caller's context ended
	ended                      // the session ended first (crash, or killed)
	unreachable                // HTTP: the server could not be reached, retries included
	denied                     // HTTP: the server answered 401 or 403
	broken                     // HTTP: an answer no retry mends (over MaxMessageSize; others' answers only)
)

// session is one running connection to a server, initialised.
type session struct {
	conn   Conn
	stderr io.Writer // for notes about stray lines

	out writeQueue // the messages on their way to the server, written together

	mu       sync.Mutex
	pending  map[int64]pendingCall
	why      string // why the session ended, once done is closed
	killedBy string // non-empty: the client ended the session on purpose (a timeout)
	stray    strayCount
	// nulls are errors answered with "id": null (a parse error) that answer calls in flight,
	// no one knows which yet; suspects are the calls that were in flight when they came and
	// have no answer of their own yet. Each answer with an id clears a suspect; once as many
	// suspects are left as nulls, the nulls are theirs.
	nulls    []response
	suspects map[int64]bool

	done chan struct{}
}

// pendingCall is a request in flight: where its response goes (ch, or settle, which the reader
// calls itself: a call of a batch, see batch.go), and whether it is a tools/call (whose result
// is read as a CallToolResult when its line is decoded).
type pendingCall struct {
	ch     chan response
	settle func(response, outcome)
	call   bool
}

// give hands the call its response. s.mu may be held: settle then runs on its own goroutine.
func (p pendingCall) give(r response, locked bool) {
	switch {
	case p.ch != nil:
		p.ch <- r
	case locked:
		go p.settle(r, answered)
	default:
		p.settle(r, answered)
	}
}

// maxStrayLogs is how many unattributable lines are written to stderr; all are counted.
const maxStrayLogs = 10

func newSession(conn Conn, stderr io.Writer) *session {
	s := &session{conn: conn, stderr: stderr, pending: map[int64]pendingCall{}, suspects: map[int64]bool{},
		done: make(chan struct{})}
	s.out.late = func(d time.Duration) { s.kill(fmt.Sprintf("writing a request took longer than %v", d)) }
	go s.read()
	return s
}

var idInBrokenLine = regexp.MustCompile(`"id"\s*:\s*(\d{1,18})\b`)

// MaxMessageSize is the longest line (one JSON-RPC message) read from an MCP server, in bytes:
// a longer one ends the session with an error naming the limit, so memory stays bounded.
const MaxMessageSize = 16 << 20

var errMessageTooLong = fmt.Errorf("the server wrote a line longer than %d bytes (mcp.MaxMessageSize)", MaxMessageSize)

// readMessage reads one line of at most MaxMessageSize bytes. A line that fits in r's buffer
// is returned in it, valid until the next read: the caller uses it (dispatch copies what it
// keeps) before reading again.
func readMessage(r *bufio.Reader) ([]byte, error) {
	var b []byte
	for {
		part, err := r.ReadSlice('\n')
		if len(b)+len(part) > MaxMessageSize {
			return nil, errMessageTooLong
		}
		if err != bufio.ErrBufferFull {
			if b == nil {
				return part, err
			}
			return append(b, part...), err
		}
		b = append(b, part...)
	}
}

// trimNewline is line without the \n or \r\n (and any other \r and \n) it ends with.
func trimNewline(line []byte) []byte {
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line
}

// read dispatches the server's lines until its output ends.
func (s *session) read() {
	r := bufio.NewReaderSize(s.conn, 64*1024)
	why := "the server closed its output"
	for {
		line, err := readMessage(r)
		if len(line) > 0 {
			s.dispatch(trimNewline(line))
		}
		if err != nil {
			if errors.Is(err, errMessageTooLong) {
				why = err.Error() + ": the session is ended"
			} else if !errors.Is(err, io.EOF) {
				why = "reading the server's output: " + err.Error()
			}
			break
		}
	}
	if d, ok := s.conn.(interface{ Describe() string }); ok {
		// Close first so that the process has exited and its status is known.
		_ = s.conn.Close()
		if x := d.Describe(); x != "" {
			why += "; " + x
		}
	} else {
		_ = s.conn.Close()
	}
	s.mu.Lock()
	if s.killedBy != "" {
		why = s.killedBy
	}
	s.why = why
	close(s.done)
	var left []pendingCall
	for id, p := range s.pending {
		if p.settle != nil {
			left = append(left, p)
			delete(s.pending, id)
		}
	}
	s.mu.Unlock()
	for _, p := range left {
		p.settle(response{}, ended)
	}
}

func (s *session) dispatch(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 || s.dispatchCall(line) {
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		// A broken line that still shows its id is that request's protocol error.
		if sub := idInBrokenLine.FindSubmatch(line); sub != nil {
			id, _ := strconv.ParseInt(string(sub[1]), 10, 64)
			if s.deliver(id, response{Bad: "a line that is not JSON: " + clip(string(line), 200)}) {
				return
			}
		}
		s.strayLine(line, "not a JSON-RPC message")
		return
	}
	if m.Method != "" {
		if len(m.ID) > 0 && string(m.ID) != "null" {
			// A request from the server (roots, sampling, elicitation, ping): toolproof offers
			// no client capabilities; a ping gets its empty result.
			// Answered from another goroutine: the reader must not wait behind a long write.
			reply := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`
			if m.Method != "ping" {
				msg, _ := json.Marshal("toolproof does not offer " + m.Method)
				reply = `{"jsonrpc":"2.0","id":` + string(m.ID) +
					`,"error":{"code":-32601,"message":` + string(msg) + `}}`
			}
			go s.send([]byte(reply), 0)
		}
		return // a notification (log message, list changed, progress): ignored
	}
	if m.Error != nil && (len(m.ID) == 0 || string(m.ID) == "null") {
		// JSON-RPC 2.0: a parse error or an invalid request is answered with "id": null.
		s.deliverNull(response{Error: m.Error}, line)
		return
	}
	id, err := strconv.ParseInt(string(m.ID), 10, 64)
	if err != nil {
		s.strayLine(line, "a response whose id is not one toolproof sent")
		return
	}
	r := response{Result: m.Result, Error: m.Error}
	if m.Error == nil && (len(m.Result) == 0 || string(m.Result) == "null") {
		r = response{Bad: "a response with neither result nor error: " + clip(string(line), 200)}
	}
	if !s.deliver(id, r) {
		s.strayLine(line, "a response to no request in flight")
	}
}

// dispatchCall delivers the common line, decoded once: an answer (a result or an error) with a
// numeric id to a tools/call in flight, found and taken under one lock. Any other line is left
// to dispatch (false), which reads it again.
func (s *session) dispatchCall(line []byte) bool {
	id, result, rpcErr, ok := decodeCallAnswer(line)
	if !ok {
		return false
	}
	s.mu.Lock()
	p, ok := s.pending[id]
	if !ok || !p.call {
		s.mu.Unlock()
		return false
	}
	s.take(id)
	s.mu.Unlock()
	p.give(response{call: result, Error: rpcErr}, false)
	return true
}

// decodeCallAnswer reads a line that may answer a tools/call: a result or an error with a
// numeric id, no method. The common shape is read by fastCallAnswer, the rest by encoding/json.
func decodeCallAnswer(line []byte) (id int64, result *callResult, rpcErr *rpcError, ok bool) {
	if id, result, rpcErr, ok := fastCallAnswer(line); ok {
		return id, result, rpcErr, true
	}
	return jsonCallAnswer(line)
}

// jsonCallAnswer is decodeCallAnswer through encoding/json, for the lines fastCallAnswer
// leaves (and the reference it is tested against).
func jsonCallAnswer(line []byte) (id int64, result *callResult, rpcErr *rpcError, ok bool) {
	var m struct {
		ID     *int64      `json:"id"`
		Method string      `json:"method"`
		Result *callResult `json:"result"`
		Error  *rpcError   `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "" || m.ID == nil || m.Result == nil && m.Error == nil {
		return 0, nil, nil, false
	}
	return *m.ID, m.Result, m.Error, true
}

// deliverNull takes an error answered with "id": null (JSON-RPC 2.0 answers a parse error so):
// with one call in flight it is that call's answer; with more, every call in flight becomes a
// suspect, and the null goes to the one left without an answer of its own (settle).
func (s *session) deliverNull(r response, line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case len(s.pending) == 0:
		s.mu.Unlock()
		s.strayLine(line, `an error with "id": null while no request was in flight`)
		s.mu.Lock()
	case len(s.pending) == 1 && len(s.nulls) == 0:
		for id, p := range s.pending {
			delete(s.pending, id)
			p.give(r, true)
		}
	default:
		s.nulls = append(s.nulls, r)
		for id := range s.pending {
			s.suspects[id] = true
		}
		s.settle()
	}
}

// settle gives the nulls to the suspects once as many suspects are left as nulls: each its
// null when the nulls are alike, else each is told to go again alone (ambiguous). s.mu is held.
func (s *session) settle() {
	if len(s.nulls) == 0 || len(s.suspects) > len(s.nulls) {
		return
	}
	alike := true
	for _, n := range s.nulls[1:] {
		alike = alike && n.Error.Code == s.nulls[0].Error.Code && n.Error.Message == s.nulls[0].Error.Message
	}
	for id := range s.suspects {
		r := response{ambiguous: true}
		if alike && len(s.suspects) == len(s.nulls) {
			r = s.nulls[0]
		}
		if p, ok := s.pending[id]; ok {
			delete(s.pending, id)
			p.give(r, true)
		}
	}
	s.nulls = nil
	clear(s.suspects)
}

// deliver gives r to request id, if it is in flight (false: it is not).
func (s *session) deliver(id int64, r response) bool {
	s.mu.Lock()
	p, ok := s.pending[id]
	s.take(id)
	s.mu.Unlock()
	if ok {
		p.give(r, false)
	}
	return ok
}

// take removes request id, answered, from the requests in flight and from the suspects, and
// settles the nulls when that leaves as few suspects as nulls. s.mu is held.
func (s *session) take(id int64) {
	delete(s.pending, id)
	if s.suspects[id] {
		delete(s.suspects, id)
		s.settle()
	}
}

func (s *session) strayLine(line []byte, what string) {
	if s.stray.add(line) {
		fmt.Fprintf(s.stderr, "toolproof: mcp: ignored a line from the server (%s): %s\n", what,
			report.EscapeLine(clip(string(line), 200)))
	}
}

// strays says how many lines could not be used, and the first.
func (s *session) strays() (int, string) {
	return s.stray.get()
}

// send writes one message line, with the lines other calls send meanwhile in one write; it
// returns when its line is written. A write that takes longer than guard (> 0) ends the session.
func (s *session) send(msg []byte, guard time.Duration) error {
	return s.out.send(s.conn, msg, guard, true)
}

// ended is closed when the session has ended.
func (s *session) ended() <-chan struct{} { return s.done }

// reason is why the session ended ("" while it runs).
func (s *session) reason() (why string, killed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.why, s.killedBy != ""
}

// kill ends the session on purpose; calls in flight on it see it ended with why.
func (s *session) kill(why string) {
	s.mu.Lock()
	if s.killedBy == "" {
		s.killedBy = why
	}
	s.mu.Unlock()
	_ = s.conn.Close()
}

// call sends one request and waits for its response.
func (s *session) call(ctx context.Context, req request, timeout time.Duration) (response, outcome) {
	id, method, params := req.id, req.method, req.params
	ch := make(chan response, 1)
	s.mu.Lock()
	s.pending[id] = pendingCall{ch: ch, call: method == "tools/call"}
	s.mu.Unlock()
	defer s.forget(id)
	msg := message(id, method, params, true)
	// The line goes out with the write under way, if any, without waiting for it: its answer is
	// waited for below. A server that stops reading its input would block the write for ever:
	// past the timeout the session is ended, which unblocks it.
	if err := s.out.send(s.conn, msg, timeout, false); err != nil {
		<-s.done
		return response{}, ended
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r, answered
	case <-s.done:
		// An answer may have arrived just before the end.
		select {
		case r := <-ch:
			return r, answered
		default:
		}
		return response{}, ended
	case <-timer.C:
		return response{}, timedOut
	case <-ctx.Done():
		return response{}, cancelled
	}
}

// notify sends a notification.
func (s *session) notify(method string, params []byte) error {
	msg := `{"jsonrpc":"2.0","method":` + strconv.Quote(method)
	if params != nil {
		msg += `,"params":` + string(params)
	}
	return s.send([]byte(msg+"}"), 0)
}
