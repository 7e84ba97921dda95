package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// ProtocolVersions are the MCP revisions the client speaks, newest first. 2026-07-28 is
// stateless (every request carries its version in _meta; no initialize); the others open a
// session with initialize.
var ProtocolVersions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}

// Defaults for the zero values of Options.
const (
	DefaultWindow       = 16               // tools/call requests in flight
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

	Window       int           // tools/call requests in flight; 0 means DefaultWindow
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

	// RejectPattern: an isError text or JSON-RPC error message it matches is a rejection (a
	// server's own wording for invalid arguments). RanPattern: an isError text it matches
	// means the tool ran (and then failed). Both are tried before the SDK wordings.
	RejectPattern *regexp.Regexp
	RanPattern    *regexp.Regexp

	Only []string // test only these tools (--tool); nil: all
	Skip []string // leave these tools out (--skip-tool)

	// SEP1303: a JSON-RPC -32602 rejection on protocol 2025-11-25 or later is a finding
	// (protocol_error); by default it is a rejection and a conformance note.
	SEP1303 bool
}

// Client is a running MCP server under test. It is a validator.Validator and a
// validator.ToolSource (the server's tools); its gates are validator.BatchGates that pipeline
// tools/call requests and survive crashes and hangs of the server by starting a new session.
type Client struct {
	opts     Options
	cls      classifier
	name     string
	protocol string
	era      era
	// how the protocol was chosen, for the notes
	negotiated string
	scrub      *redactor
	httpClient *http.Client
	retried    atomic.Int64
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
	workers *workers     // send the calls of CheckBatch
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
	if opts.Window <= 0 {
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
		cls:   classifier{reject: opts.RejectPattern, ran: opts.RanPattern, sdk: SDKForms()},
		scrub: newRedactor(opts.Header)}
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
		return redactURL(c.opts.URL)
	case c.opts.Dial != nil:
		return "the server"
	}
	return strings.Join(c.opts.Command, " ")
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// The bounds of a tools/list answer, so a server that pages forever or lists huge schemas
// ends Start with an error naming the bound, or has the tool left out, instead of a hang.
const (
	MaxPages      = 1000     // tools/list pages read; more is an error
	MaxTools      = 10000    // tools listed; more is an error
	MaxSchemaSize = 1 << 20  // bytes of one inputSchema; a bigger one's tool is left out with the reason
	MaxListSize   = 64 << 20 // bytes of every inputSchema kept; more is an error
)

// list reads every page of tools/list.
func (c *Client) list(s link) error {
	var all []tool.Tool
	seen := map[string]bool{}
	c.unsupported = map[string]string{}
	c.params = map[string][]paramHeader{}
	cursor := ""
	kept := 0
	for page := 0; ; page++ {
		if page == MaxPages {
			return fmt.Errorf("mcp: %s: tools/list still has more pages after %d (mcp.MaxPages)", c.where(), MaxPages)
		}
		params := []byte(`{}`)
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		r, out := s.call(context.Background(), request{id: c.nextID.Add(1), method: "tools/list", params: c.withMeta(params), version: c.modern()}, c.opts.StartTimeout)
		switch {
		case out == denied || out == unreachable:
			return c.startError(r.Bad)
		case out == timedOut:
			return fmt.Errorf("mcp: %s: no answer to tools/list within %v", c.where(), c.opts.StartTimeout)
		case out == ended:
			why, _ := s.reason()
			return fmt.Errorf("mcp: %s: the server ended during tools/list: %s", c.where(), why)
		case r.Bad != "":
			return fmt.Errorf("mcp: %s: tools/list: %s", c.where(), r.Bad)
		case r.Error != nil:
			return fmt.Errorf("mcp: %s: tools/list failed: JSON-RPC error %d: %s", c.where(), r.Error.Code, r.Error.Message)
		}
		var res struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
				Execution   struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			} `json:"tools"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := json.Unmarshal(r.Result, &res); err != nil {
			return fmt.Errorf("mcp: %s: tools/list answered with a result that is not a ListToolsResult: %s", c.where(), clip(string(r.Result), 200))
		}
		for _, t := range res.Tools {
			if t.Name == "" {
				return fmt.Errorf("mcp: %s: tools/list gave a tool without a name", c.where())
			}
			if seen[t.Name] {
				c.note(fmt.Sprintf("the server lists tool %q more than once; the first is tested", t.Name))
				continue
			}
			seen[t.Name] = true
			if len(seen) > MaxTools {
				return fmt.Errorf("mcp: %s: tools/list lists more than %d tools (mcp.MaxTools)", c.where(), MaxTools)
			}
			if len(t.InputSchema) > MaxSchemaSize {
				c.unsupported[t.Name] = fmt.Sprintf("has an inputSchema of %d bytes, more than %d (mcp.MaxSchemaSize)", len(t.InputSchema), MaxSchemaSize)
				t.InputSchema = json.RawMessage(`{"type":"object"}`)
			}
			if kept += len(t.InputSchema); kept > MaxListSize {
				return fmt.Errorf("mcp: %s: the tools/list schemas add up to more than %d bytes (mcp.MaxListSize)", c.where(), MaxListSize)
			}
			if t.Execution.TaskSupport == "required" {
				c.unsupported[t.Name] = "needs task augmentation (execution.taskSupport: required), which toolproof does not send"
			}
			if c.opts.URL != "" && c.era == eraModern {
				hs, err := paramHeaders(t.InputSchema)
				if err != nil {
					c.unsupported[t.Name] = "has an x-mcp-header annotation the 2026-07-28 revision does not allow: " + err.Error()
				}
				c.params[t.Name] = hs
			}
			schema := t.InputSchema
			if len(schema) == 0 || string(schema) == "null" {
				schema = json.RawMessage(`{"type":"object"}`)
				c.note(fmt.Sprintf("tool %q has no inputSchema; tested as {\"type\":\"object\"}", t.Name))
			}
			all = append(all, tool.Tool{Name: t.Name, Description: t.Description, Parameters: schema,
				Source: c.nameOr() + " tools/list"})
		}
		if res.NextCursor == nil || *res.NextCursor == "" {
			break
		}
		if *res.NextCursor == cursor {
			return fmt.Errorf("mcp: %s: tools/list gave the same nextCursor %q twice", c.where(), cursor)
		}
		cursor = *res.NextCursor
	}
	if len(all) == 0 {
		return fmt.Errorf("mcp: %s lists no tools", c.where())
	}
	c.listed = map[string]tool.Tool{}
	for _, t := range all {
		c.listed[t.Name] = t
		if why := c.leftOut(t.Name); why != "" {
			c.hidden = append(c.hidden, t.Name)
			if u := c.unsupported[t.Name]; u != "" && why == u {
				c.note(fmt.Sprintf("tool %q left out: it %s", t.Name, u))
			}
			continue
		}
		c.tools = append(c.tools, t)
	}
	for _, n := range c.opts.Only {
		if _, ok := c.listed[n]; !ok {
			return fmt.Errorf("mcp: --tool %s: %s does not list that tool (it lists %s)", n, c.where(), strings.Join(names(all), ", "))
		}
	}
	if len(c.tools) == 0 {
		return fmt.Errorf("mcp: %s: every listed tool (%s) is left out by --tool/--skip-tool", c.where(), strings.Join(names(all), ", "))
	}
	return nil
}

func (c *Client) nameOr() string {
	if c.name != "" {
		return c.name
	}
	return "mcp"
}

func names(ts []tool.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// leftOut says why a tool is not tested ("" when it is).
func (c *Client) leftOut(name string) string {
	if u := c.unsupported[name]; u != "" {
		return u
	}
	if slices.Contains(c.opts.Skip, name) {
		return "left out by --skip-tool"
	}
	if len(c.opts.Only) > 0 && !slices.Contains(c.opts.Only, name) {
		return "not among the --tool names"
	}
	return ""
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
		c.note(fmt.Sprintf("%s: the schema the cases come from differs from the one the server lists; the server's gate is checked against the given one", t.Where()))
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

func (c *Client) note(n string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Contains(c.notes, n) {
		c.notes = append(c.notes, n)
	}
}

func (c *Client) count(form string) {
	c.mu.Lock()
	c.forms[form]++
	c.mu.Unlock()
}

// Forms counts the verdicts so far by the form of the answer: "rejected: JSON-RPC -32602",
// "rejected: isError, TypeScript SDK wording", "ran: plain result", "unclear: ..." and so on.
func (c *Client) Forms() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.forms))
	for k, v := range c.forms {
		out[k] = v
	}
	return out
}

// Notes are lines for the report: which forms the server answered in, how to classify unclear
// answers, schemas that differ, restarts.
func (c *Client) Notes() []string {
	forms := c.Forms()
	c.mu.Lock()
	notes := slices.Clone(c.notes)
	restarts := c.restarts
	c.mu.Unlock()
	if len(forms) > 0 {
		keys := make([]string, 0, len(forms))
		for k := range forms {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if forms[keys[i]] != forms[keys[j]] {
				return forms[keys[i]] > forms[keys[j]]
			}
			return keys[i] < keys[j]
		})
		var parts []string
		unclear := 0
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, forms[k]))
			if strings.HasPrefix(k, "unclear") {
				unclear += forms[k]
			}
		}
		notes = append(notes, "tools/call answers by form (shrinking included): "+strings.Join(parts, ", "))
		if unclear > 0 {
			notes = append(notes, fmt.Sprintf("%d answers were unclear (neither a validation error in a known wording nor a result): classify the server's own wording with --reject-pattern REGEX or --ran-pattern REGEX", unclear))
		}
	}
	if restarts > 0 {
		if c.opts.URL != "" {
			notes = append(notes, fmt.Sprintf("a new session was started %d times", restarts))
		} else {
			notes = append(notes, fmt.Sprintf("the server was restarted %d times", restarts))
		}
	}
	notes = append(notes, c.protocolNotes(forms)...)
	if n := len(c.hidden); n > 0 {
		shown := c.hidden[:min(n, 6)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf(" and %d more", n-len(shown))
		}
		notes = append(notes, fmt.Sprintf("%d listed tools not tested (--tool, --skip-tool, unsupported): %s%s", n, strings.Join(shown, ", "), more))
	}
	return notes
}

// Close ends the session.
func (c *Client) Close() error {
	c.mu.Lock()
	s := c.cur
	c.cur = nil
	c.closed = true
	if c.broken == nil {
		c.broken = errors.New("mcp: the client is closed")
	}
	c.mu.Unlock()
	c.workers.close()
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

// gate is one tool of the server.
type gate struct {
	c        *Client
	name     string
	nameJSON []byte
	params   []paramHeader
}

// Check sends one call.
func (g *gate) Check(ctx context.Context, args []byte) validator.Verdict {
	return g.c.call(ctx, g, args)
}

// CheckBatch sends the calls pipelined, up to Options.Window in flight: the client's workers
// take the calls in turn, each verdict at its call's index.
func (g *gate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	out := make([]validator.Verdict, len(args))
	var wg sync.WaitGroup
	wg.Add(len(args))
	for i := range args {
		g.c.workers.run(g.c, job{ctx: ctx, g: g, args: args[i], out: &out[i], done: &wg})
	}
	wg.Wait()
	return out
}

// maxAttempts bounds how often a call is sent again after its session was ended for another
// call's timeout.
const maxAttempts = 3

// call sends one tools/call and reads its verdict. A call in flight when the server crashed
// is sent again alone, so that a crash is blamed on the call that caused it.
func (c *Client) call(ctx context.Context, g *gate, args []byte) validator.Verdict {
	name := g.name
	params, why := callParams(g.nameJSON, args)
	if params == nil {
		c.count("not sent")
		return validator.NotSent(why)
	}
	params = c.withMeta(params)
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return validator.Failed(validator.Timeout, "cancelled before it was sent")
	}
	defer func() { <-c.sem }()
	alone := false
	for attempt := 1; ; attempt++ {
		s, r, out, err := c.send(ctx, request{method: "tools/call", params: params, name: name, paramHeaders: paramValues(g.params, args)}, alone)
		if err != nil {
			if v, ok := c.goneVerdict(); ok {
				return v
			}
			c.count("crash")
			return validator.Failed(validator.Crash, err.Error())
		}
		switch out {
		case answered:
			if r.ambiguous {
				// An error with "id": null answered one of the calls in flight: each goes again alone.
				alone = true
				continue
			}
			return c.verdict(r, objectRoot(args))
		case timedOut:
			c.count("timeout")
			if c.opts.URL != "" {
				return validator.Failed(validator.Timeout, fmt.Sprintf("no answer to tools/call within %v", c.opts.Timeout))
			}
			return validator.Failed(validator.Timeout, fmt.Sprintf("no answer to tools/call within %v; the server was restarted", c.opts.Timeout))
		case cancelled:
			return validator.Failed(validator.Timeout, "cancelled")
		case unreachable, denied:
			c.markGone(out, r.Bad)
			v, _ := c.goneVerdict()
			return v
		}
		// The session ended while this call was in flight.
		why, killed := s.reason()
		switch {
		case killed && attempt < maxAttempts:
			continue // ended for another call: send it again
		case !alone && !killed:
			alone = true // maybe this call crashed it: send it again with nothing else in flight
			continue
		}
		c.count("crash")
		if alone {
			return validator.Failed(validator.Crash, "the server died while running this call alone: "+why)
		}
		return validator.Failed(validator.Crash, "the session ended while this call was in flight: "+why)
	}
}

// send sends one tools/call on the current session, alone (no other call in flight) or not.
// Over stdio a call unanswered in time ends the session (the server is restarted).
func (c *Client) send(ctx context.Context, req request, alone bool) (link, response, outcome, error) {
	if alone {
		c.isolate.Lock()
		defer c.isolate.Unlock()
	} else {
		c.isolate.RLock()
		defer c.isolate.RUnlock()
	}
	s, err := c.session()
	if err != nil {
		return nil, response{}, 0, err
	}
	req.id, req.version = c.nextID.Add(1), c.modern()
	r, out := s.call(ctx, req, c.opts.Timeout)
	if out == timedOut && c.opts.URL == "" {
		s.kill(fmt.Sprintf("ended by toolproof: a call to %s went unanswered for %v", req.name, c.opts.Timeout))
	}
	return s, r, out, nil
}

// objectRoot says whether an argument text is a JSON object (MCP's CallToolRequest wants one:
// a -32602 for anything else is the protocol's own check, not the tool's input validation).
func objectRoot(args []byte) bool {
	t := bytes.TrimLeft(args, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// verdict classifies an answer and counts its form; object: the arguments were an object, so
// that a -32602 is input validation in the sense of SEP-1303.
func (c *Client) verdict(r response, object bool) validator.Verdict {
	if r.Fault != "" {
		c.count("crash: " + strings.SplitN(r.Fault, ":", 2)[0])
		return validator.Failed(validator.Crash, "the server failed this call: "+r.Fault)
	}
	v, form := c.cls.classify(r)
	c.count(form)
	if form == FormRPCInvalidParams && object && sep1303Applies(c.protocol) {
		c.sep1303.Add(1)
	}
	if form == FormRPCInvalidParams && object && sep1303Applies(c.protocol) && c.opts.SEP1303 {
		return validator.Failed(validator.ProtocolError, fmt.Sprintf("SEP-1303: on protocol %s an input validation error is a tool result with isError: true, not JSON-RPC -32602 (%s)", c.protocol, clip(r.Error.Message, 200)))
	}
	return v
}

// callParams makes the tools/call params with the argument text spliced in as written (less
// insignificant whitespace, so that it fits on one line). Text that is not one JSON value, or
// not UTF-8, cannot be sent in a JSON-RPC message: params is nil and why says so.
func callParams(nameJSON, args []byte) (params []byte, why string) {
	if !utf8.Valid(args) {
		return nil, "the argument text is not UTF-8; JSON-RPC messages are"
	}
	params = make([]byte, 0, len(args)+len(nameJSON)+24)
	params = append(params, `{"name":`...)
	params = append(params, nameJSON...)
	params = append(params, `,"arguments":`...)
	// Compact checks the text as it goes and appends it to params: one pass, no copy.
	buf := bytes.NewBuffer(params)
	if err := json.Compact(buf, args); err != nil {
		return nil, "the argument text is not JSON; MCP sends arguments as a JSON value inside a JSON-RPC message"
	}
	buf.WriteByte('}')
	return buf.Bytes(), ""
}
