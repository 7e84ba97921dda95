package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// ProtocolVersions are the MCP revisions the client speaks, newest first. 2026-07-28 is
// stateless (every request carries its version in _meta; no initialize); the others open a
// session with initialize.
var ProtocolVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}

// Defaults for the zero values of Options.
const (
	DefaultWindow       = 64               // tools/call requests in flight on a stdio server
	DefaultHTTPWindow   = 16               // tools/call POSTs in flight to an HTTP server
	DefaultTimeout      = 10 * time.Second // per tools/call
	DefaultStartTimeout = 30 * time.Second // start-up, initialize and each tools/list page
	DefaultProbeTimeout = 3 * time.Second  // the server/discover probe of a stdio server
)

// Options says how to reach an MCP server and how to read its answers.
type Options struct {
	Command []string // the server program and its arguments (or Dial, or URL)
	// URL is a Streamable HTTP endpoint (http:// or https://), used instead of Command.
	URL string
	// Header goes on every HTTP request (auth, routing). Its values are secrets: they are
	// replaced in every text passed on from the server and never written anywhere.
	Header http.Header
	// HTTPClient sends the HTTP requests; nil is a client keeping Window connections open.
	HTTPClient *http.Client
	Dir        string   // working directory of the server; "" is toolproof's own
	Env        []string // environment of the server as in exec.Cmd.Env; nil is toolproof's own
	// Dial opens a session to a server another way (an in-memory server in a test); it is
	// called again after the session ends (a crash). Used instead of Command when set.
	Dial func() (Conn, error)

	Window       int           // tools/call requests in flight; 0 means DefaultWindow, over HTTP DefaultHTTPWindow
	Timeout      time.Duration // how long one tools/call may go unanswered; 0 means DefaultTimeout
	StartTimeout time.Duration // start-up, initialize, each tools/list page; 0 means DefaultStartTimeout
	// ProbeTimeout: how long a stdio server may take to answer server/discover before it is
	// taken for a legacy one (initialize follows; an UnsupportedProtocolVersionError to it
	// still finds a modern server); 0 means DefaultProbeTimeout.
	ProbeTimeout time.Duration
	// MaxRestarts caps the sessions started after crashes (0: no cap). Either way a session
	// that cannot be started again (start-up or initialize fails) ends the run: every call
	// after it is a crash with the reason.
	MaxRestarts int
	Stderr      io.Writer // gets the server's stderr and the client's notes; nil means os.Stderr
	Name        string    // the validator's name in reports; "" is "mcp:SERVER VERSION"

	// Wording is the server's own words: an isError text or JSON-RPC error message Reject
	// matches is a rejection; an isError text Ran matches means the tool ran (and then failed).
	// Both are tried before the SDK wordings.
	Wording validator.Wording

	Only []string // test only these tools (--tool); nil: all
	Skip []string // leave these tools out (--skip-tool)

	// SEP1303: a JSON-RPC -32602 rejection on protocol 2025-11-25 or later is a finding
	// (protocol_error); by default it is a rejection and a conformance note.
	SEP1303 bool
}

// The capabilities a Client and its gates have, checked by the compiler.
var (
	_ validator.Validator  = (*Client)(nil)
	_ validator.ToolSource = (*Client)(nil)
	_ validator.ValueBlind = (*Client)(nil)
	_ validator.Closer     = (*Client)(nil)
	_ validator.Fallible   = (*Client)(nil)
	_ validator.Noter      = (*Client)(nil)
	_ validator.BatchGate  = (*gate)(nil)
)

// Client is a running MCP server under test. It is a validator.Validator and a
// validator.ToolSource (the server's tools); its gates are validator.BatchGates that pipeline
// tools/call requests and survive crashes and hangs of the server by starting a new session.
type Client struct {
	opts     Options
	answers  answerReader
	name     string
	protocol string
	era      era
	// how the protocol was chosen, for the notes
	negotiated string
	// metaHead is how a tools/call's params begin in a modern session: `{"_meta":{...},`
	// with protocol's _meta, set with it (callHead).
	metaHead   []byte
	scrub      *redactor
	httpClient *http.Client
	retried    atomic.Int64
	rotated    atomic.Bool  // the HTTP server gives a new session id on its answers: one call at a time
	sep1303    atomic.Int64 // -32602 rejections of object arguments on 2025-11-25 or later
	gone       error        // the HTTP server stopped answering (retries included), or refused toolproof
	notSent    int          // calls not sent after that
	stop       func()       // stops what StartHandler started
	tools      []tool.Tool
	listed     map[string]tool.Tool
	hidden     []string // listed tools left out by Only or Skip
	// unsupported: listed tools toolproof cannot call, with the reason
	unsupported map[string]string
	params      map[string][]paramHeader // x-mcp-header annotations by tool (2026-07-28 over HTTP)

	sem     chan struct{}
	workers *workers     // post the calls of CheckBatch over HTTP
	isolate sync.RWMutex // exclusive: a call retried alone after a crash
	nextID  atomic.Int64

	mu       sync.Mutex
	cur      link
	broken   error
	restarts int
	closed   bool
	forms    map[string]int
	notes    []string
}

// Start starts the server, runs initialize and tools/list, and returns the client. A server
// that does not answer initialize, answers it wrongly or lists no tools is an error.
func Start(opts Options) (*Client, error) {
	if opts.Dial == nil && len(opts.Command) == 0 && opts.URL == "" {
		return nil, errors.New("mcp: no server command or URL given")
	}
	if opts.Window <= 0 && opts.URL != "" {
		opts.Window = DefaultHTTPWindow
	} else if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.ProbeTimeout <= 0 {
		opts.ProbeTimeout = DefaultProbeTimeout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	c := &Client{opts: opts, sem: make(chan struct{}, opts.Window), workers: newWorkers(), forms: map[string]int{},
		answers: answerReader{wording: opts.Wording, sdk: SDKForms()},
		scrub:   newRedactor(opts.Header)}
	if opts.URL != "" {
		if err := c.setupHTTP(); err != nil {
			return nil, err
		}
	}
	s, info, err := c.open()
	if err != nil {
		return nil, err
	}
	c.cur = s
	c.name = opts.Name
	if c.name == "" {
		c.name = "mcp:" + strings.TrimSpace(info.Name+" "+info.Version)
		if info.Name == "" {
			c.name = "mcp:" + c.where()
		}
	}
	if err := c.list(s); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// where names the server for messages.
func (c *Client) where() string {
	switch {
	case c.opts.URL != "":
		return RedactURL(c.opts.URL)
	case c.opts.Dial != nil:
		return "the server"
	}
	return strings.Join(c.opts.Command, " ")
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Name is "mcp:SERVER VERSION" from the server's initialize answer, or Options.Name.
func (c *Client) Name() string { return c.name }

// ValueBlind marks the client as a validator.ValueBlind: an MCP server answers whether the tool
// ran, never with what its input validation passed on to it.
func (c *Client) ValueBlind() {}

// Protocol is the MCP version the server agreed to.
func (c *Client) Protocol() string { return c.protocol }

// Tools returns the server's tools (less those Options.Only and Skip leave out), as listed.
func (c *Client) Tools() ([]tool.Tool, error) { return slices.Clone(c.tools), nil }

// Compile returns the gate of a tool the server lists. A tool it does not list, or one left out
// by Options.Only or Skip, is an error (the tool is skipped). When the given schema differs from
// the one the server lists, the cases still come from the given one, and a note says so.
func (c *Client) Compile(t tool.Tool) (validator.Gate, error) {
	lt, ok := c.listed[t.Name]
	if !ok {
		return nil, fmt.Errorf("the server does not list tool %q", t.Name)
	}
	if why := c.leftOut(t.Name); why != "" {
		return nil, fmt.Errorf("tool %q: %s", t.Name, why)
	}
	// With --close the harness closes the listed schema before compiling: that is no difference.
	if !sameSchema(lt.Parameters, t.Parameters) && !sameSchema(tool.Close(lt).Parameters, t.Parameters) {
		c.note(fmt.Sprintf("%s: the schema the cases come from differs from the one the server lists; the server's "+
			"gate is checked against the given one", t.Where()))
	}
	return &gate{c: c, name: t.Name, nameJSON: mustQuote(t.Name), params: c.params[t.Name]}, nil
}

func sameSchema(a, b json.RawMessage) bool {
	va, err1 := jsonvalue.Parse(a)
	vb, err2 := jsonvalue.Parse(b)
	if err1 != nil || err2 != nil {
		return bytes.Equal(a, b)
	}
	return jsonvalue.Equal(va, vb)
}

func mustQuote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// Close ends the session.
func (c *Client) Close() error {
	c.mu.Lock()
	s := c.cur
	c.cur = nil
	again := c.closed
	c.closed = true
	if c.broken == nil {
		c.broken = errors.New("mcp: the client is closed")
	}
	c.mu.Unlock()
	c.workers.close()
	if n := c.retried.Load(); n > 0 && c.opts.URL != "" && !again {
		fmt.Fprintf(c.opts.Stderr, "toolproof: mcp: %d HTTP requests to %s were sent again after transport faults\n",
			n, c.where())
	}
	if s != nil {
		s.kill("closed")
		<-s.ended()
	}
	if c.stop != nil {
		c.stop()
	}
	return nil
}

// session returns the running session, starting a new one when the last has ended.
func (c *Client) session() (link, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return nil, c.broken
	}
	if c.cur != nil && !dead(c.cur) {
		return c.cur, nil
	}
	if c.opts.MaxRestarts > 0 && c.restarts >= c.opts.MaxRestarts {
		c.broken = fmt.Errorf("mcp: %s: the server was restarted %d times; giving up", c.where(), c.restarts)
		return nil, c.broken
	}
	c.restarts++
	s, _, err := c.open()
	if err != nil {
		c.broken = fmt.Errorf("restarting the server: %w", err)
		return nil, c.broken
	}
	c.cur = s
	return s, nil
}
