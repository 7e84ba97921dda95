package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/toolproof/toolproof/validator"
)

// era is how a server is spoken to: legacy revisions open a session with initialize; modern
// ones (2026-07-28 and later) carry the version on every request.
type era int

const (
	eraUnknown era = iota
	eraLegacy
	eraModern
)

// The _meta keys of the 2026-07-28 revision.
const (
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo      = "io.modelcontextprotocol/clientInfo"
	metaCapabilities    = "io.modelcontextprotocol/clientCapabilities"
	metaServerInfo      = "io.modelcontextprotocol/serverInfo"
)

// Error codes of the 2026-07-28 revision that only a modern server answers.
const (
	codeHeaderMismatch     = -32020
	codeMissingCapability  = -32021
	codeUnsupportedVersion = -32022
)

func isModern(v string) bool { return v >= "2026-07-28" }

// sep1303Applies: from 2025-11-25 on, input validation errors are tool results (SEP-1303).
func sep1303Applies(v string) bool { return v >= "2025-11-25" }

// AuthError is the server refusing toolproof (HTTP 401 or 403): the run cannot go on.
type AuthError struct {
	Status string // "401 Unauthorized"
	Detail string // what was refused, with the URL (no user info, no query)
}

func (e *AuthError) Error() string {
	return "mcp: " + e.Detail + ": check the credentials given with --header (their values are never shown)"
}

// GoneError is an HTTP server that stopped answering (connection errors or 502/503/504 after
// every retry) or whose answers cannot be used (Unusable: an answer over MaxMessageSize, only
// answers to other requests after every retry): the calls after it were not sent.
type GoneError struct {
	Detail   string
	Unusable bool
}

func (e *GoneError) Error() string {
	if e.Unusable {
		return "mcp: the server's answers cannot be used: " + e.Detail
	}
	return "mcp: the server went away: " + e.Detail
}

func (c *Client) setupHTTP() error {
	u, err := url.Parse(c.opts.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("mcp: %s is not an http:// or https:// URL", RedactURL(c.opts.URL))
	}
	c.httpClient = c.opts.HTTPClient
	if c.httpClient == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = c.opts.Window + 2
		c.httpClient = &http.Client{Transport: tr}
	}
	c.httpClient = sameOrigin(c.httpClient)
	return nil
}

// connect opens a new link: a process, a Dial, or an HTTP endpoint.
func (c *Client) connect() (link, error) {
	if c.opts.URL != "" {
		return newHTTPLink(c), nil
	}
	var conn Conn
	var err error
	if c.opts.Dial != nil {
		conn, err = c.opts.Dial()
	} else {
		conn, err = startProcess(c.opts.Command, c.opts.Dir, c.opts.Env, c.opts.Stderr)
	}
	if err != nil {
		return nil, fmt.Errorf("mcp: starting %s: %w", c.where(), err)
	}
	return newSession(conn, c.opts.Stderr), nil
}

// open starts a session in the newest revision both sides speak: server/discover first (the
// 2026-07-28 probe), initialize when the server does not answer it as a modern server does.
// The era found is kept for the sessions started later.
func (c *Client) open() (link, serverInfo, error) {
	l, err := c.connect()
	if err != nil {
		return nil, serverInfo{}, err
	}
	if c.era != eraLegacy && slices.ContainsFunc(c.versions(), isModern) {
		timeout := c.opts.StartTimeout
		if c.opts.URL == "" {
			timeout = min(timeout, c.opts.ProbeTimeout)
		}
		info, modern, err := c.discover(l, timeout)
		if err != nil {
			c.drop(l, "server/discover failed")
			return nil, serverInfo{}, err
		}
		if modern {
			c.setEra(eraModern)
			return l, info, nil
		}
		c.setEra(eraLegacy)
		if dead(l) {
			// The probe ended a stdio server (it may exit on a method it does not know).
			if l, err = c.connect(); err != nil {
				return nil, serverInfo{}, err
			}
		}
	}
	c.setEra(eraLegacy)
	info, err := c.initialize(l)
	if errors.Is(err, errModernServer) {
		// The probe went unanswered in time (a server slow to start), but initialize met a
		// modern error: ask again, with all the start-up time.
		info, modern, derr := c.discover(l, c.opts.StartTimeout)
		switch {
		case derr != nil:
			c.drop(l, "server/discover failed")
			return nil, serverInfo{}, derr
		case !modern:
			c.drop(l, "server/discover failed")
			return nil, serverInfo{},
				fmt.Errorf("mcp: %s answered initialize with an UnsupportedProtocolVersionError, but server/discover "+
					"not as a modern server does", c.where())
		}
		c.setEra(eraModern)
		return l, info, nil
	}
	if err != nil {
		return nil, serverInfo{}, err
	}
	return l, info, nil
}

// errModernServer: initialize was answered with an UnsupportedProtocolVersionError (-32022),
// which only a server of the 2026-07-28 era sends.
var errModernServer = errors.New("initialize answered by a modern server")

func (c *Client) versions() []string { return ProtocolVersions }

// setEra and setProtocol record what the client's sessions agree on. A session that replaces
// a crashed or expired one agrees on the same and writes nothing: calls in flight read these
// without a lock.
func (c *Client) setEra(e era) {
	if c.era != e {
		c.era = e
	}
}

func (c *Client) setProtocol(v, how string) {
	if c.protocol != v {
		c.protocol, c.negotiated = v, how
		c.metaHead = append(append([]byte(`{"_meta":`), metaFor(v)...), ',')
	}
}

// drop ends a link that failed to start.
func (c *Client) drop(l link, why string) {
	l.kill(why)
	<-l.ended()
}

// metaFor is the _meta object of a 2026-07-28 request.
func metaFor(version string) []byte {
	b, _ := json.Marshal(map[string]any{metaProtocolVersion: version,
		metaClientInfo: map[string]string{"name": "toolproof", "version": "1"}, metaCapabilities: map[string]any{}})
	return b
}

// modern is the revision a request names in its _meta ("" in a legacy session).
func (c *Client) modern() string {
	if c.era != eraModern {
		return ""
	}
	return c.protocol
}

// withMeta adds the _meta of the modern revision to a params object (as is for legacy ones).
func (c *Client) withMeta(params []byte) []byte {
	if c.era != eraModern {
		return params
	}
	return spliceMeta(params, metaFor(c.protocol))
}

// callHead is how a tools/call's params begin: `{` in a legacy session, `{"_meta":{...},` in
// a modern one, so that callParams writes them once, _meta and all.
func (c *Client) callHead() []byte {
	if c.era != eraModern {
		return legacyHead
	}
	return c.metaHead
}

var legacyHead = []byte("{")

// spliceMeta is params, a JSON object, with meta as its first member, _meta.
func spliceMeta(params, meta []byte) []byte {
	out := make([]byte, 0, len(params)+len(meta)+12)
	out = append(out, `{"_meta":`...)
	out = append(out, meta...)
	rest := strings.TrimSpace(string(params[1:]))
	if rest != "}" {
		out = append(out, ',')
	}
	return append(out, rest...)
}

// discover sends server/discover with the newest modern revision. modern is false when the
// server answers as a legacy server does (any other error, no answer in time, an HTTP status
// without a modern error); an error is a server that refuses toolproof or speaks no common
// revision.
func (c *Client) discover(l link, timeout time.Duration) (serverInfo, bool, error) {
	var ours []string
	for _, v := range c.versions() {
		if isModern(v) {
			ours = append(ours, v)
		}
	}
	r, out := l.call(context.Background(), request{id: c.nextID.Add(1), method: "server/discover",
		params: spliceMeta([]byte(`{}`), metaFor(ours[0])), version: ours[0]}, timeout)
	switch out {
	case denied, unreachable, broken:
		return serverInfo{}, false, c.startError(out, r.Bad)
	case answered:
	default:
		return serverInfo{}, false, nil
	}
	var supported []string
	var info serverInfo
	switch {
	case r.Error != nil && r.Error.Code == codeUnsupportedVersion:
		var data struct {
			Supported []string `json:"supported"`
		}
		if json.Unmarshal(r.Error.Data, &data) != nil || len(data.Supported) == 0 {
			return serverInfo{}, false, nil
		}
		supported = data.Supported
	case r.Error == nil && r.Bad == "" && r.Fault == "":
		var res struct {
			SupportedVersions []string `json:"supportedVersions"`
			Meta              map[string]json.RawMessage
		}
		var raw map[string]json.RawMessage
		if json.Unmarshal(r.Result, &raw) != nil ||
			json.Unmarshal(raw["supportedVersions"], &res.SupportedVersions) != nil {
			return serverInfo{}, false, nil
		}
		var meta map[string]json.RawMessage
		_ = json.Unmarshal(raw["_meta"], &meta)
		_ = json.Unmarshal(meta[metaServerInfo], &info)
		supported = res.SupportedVersions
	default:
		return serverInfo{}, false, nil
	}
	for _, v := range ours {
		if slices.Contains(supported, v) {
			c.setProtocol(v, fmt.Sprintf("server/discover (the server supports %s)", strings.Join(supported, ", ")))
			return info, true, nil
		}
	}
	if slices.ContainsFunc(supported, func(v string) bool { return !isModern(v) }) {
		return serverInfo{}, false, nil // a dual-era server: initialize in a legacy revision
	}
	return serverInfo{}, false, fmt.Errorf("mcp: %s speaks MCP %s; toolproof speaks %s", c.where(),
		strings.Join(supported, ", "), strings.Join(c.versions(), ", "))
}

// initialize opens a legacy session: initialize offering the newest legacy revision, then
// notifications/initialized.
func (c *Client) initialize(l link) (serverInfo, error) {
	var offer string
	for _, v := range c.versions() {
		if !isModern(v) {
			offer = v
			break
		}
	}
	params := fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"toolproof","version":"1"}}`,
		offer)
	r, out := l.call(context.Background(),
		request{id: c.nextID.Add(1), method: "initialize", params: []byte(params)}, c.opts.StartTimeout)
	fail := func(format string, args ...any) (serverInfo, error) {
		c.drop(l, "initialize failed")
		msg := fmt.Sprintf(format, args...)
		if n, first := l.strays(); n > 0 {
			msg += fmt.Sprintf(" (it wrote %d lines that are not answers to toolproof's requests; first: %s)", n, first)
		}
		return serverInfo{}, fmt.Errorf("mcp: %s: %s", c.where(), msg)
	}
	switch out {
	case denied, unreachable, broken:
		c.drop(l, "initialize failed")
		return serverInfo{}, c.startError(out, r.Bad)
	case timedOut:
		return fail("no answer to initialize within %v", c.opts.StartTimeout)
	case ended:
		why, _ := l.reason()
		return fail("the server ended before answering initialize: %s", why)
	}
	if r.Bad != "" || r.Fault != "" {
		return fail("initialize: %s", r.Bad+r.Fault)
	}
	if r.Error != nil && r.Error.Code == codeUnsupportedVersion && slices.ContainsFunc(c.versions(), isModern) {
		return serverInfo{}, errModernServer
	}
	if r.Error != nil {
		return fail("initialize failed: JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)
	}
	var res struct {
		ProtocolVersion string     `json:"protocolVersion"`
		ServerInfo      serverInfo `json:"serverInfo"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		return fail("initialize answered with a result that is not an InitializeResult: %s",
			clip(string(r.Result), 200))
	}
	if !slices.Contains(c.versions(), res.ProtocolVersion) || isModern(res.ProtocolVersion) {
		return fail("the server speaks MCP %q; toolproof speaks %s", res.ProtocolVersion,
			strings.Join(c.versions(), ", "))
	}
	if h, ok := l.(*httpLink); ok && res.ProtocolVersion != "2025-03-26" {
		h.settle(res.ProtocolVersion)
	}
	if err := l.notify("notifications/initialized", nil); err != nil {
		return fail("sending notifications/initialized: %v", err)
	}
	c.setProtocol(res.ProtocolVersion, "initialize")
	return res.ServerInfo, nil
}

// startError is the error of a server that refuses toolproof or cannot be reached at start.
func (c *Client) startError(out outcome, detail string) error {
	if out == broken {
		return errors.New("mcp: " + detail)
	}
	if strings.Contains(detail, " 401 ") || strings.Contains(detail, " 403 ") {
		return &AuthError{Status: statusIn(detail), Detail: detail}
	}
	return errors.New("mcp: cannot reach the server: " + detail)
}

func statusIn(detail string) string {
	for _, s := range []string{"401", "403"} {
		if i := strings.Index(detail, " "+s+" "); i >= 0 {
			rest := detail[i+1:]
			if j := strings.Index(rest, " to "); j > 0 {
				return rest[:j]
			}
			return s
		}
	}
	return ""
}

// markGone records that the HTTP server refused toolproof or stopped answering: the calls
// after it are not sent.
func (c *Client) markGone(out outcome, detail string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone != nil {
		return
	}
	if out == denied {
		c.gone = &AuthError{Status: statusIn(detail), Detail: detail}
	} else {
		c.gone = &GoneError{Detail: detail, Unusable: out == broken}
	}
	c.broken = c.gone
}

// goneVerdict is the verdict on a call not sent because the server went away.
func (c *Client) goneVerdict() (validator.Verdict, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone == nil {
		return validator.Verdict{}, false
	}
	c.notSent++
	c.forms["not sent: the server went away"]++
	return validator.NotSent("not sent: " + c.gone.Error()), true
}

// Err is why the run could not be completed: an *AuthError (the server answered 401 or 403) or
// a *GoneError (it stopped answering); nil when every call was sent.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gone
}

// Transport is "stdio" or "Streamable HTTP".
func (c *Client) Transport() string {
	if c.opts.URL != "" {
		return "Streamable HTTP"
	}
	return "stdio"
}

// IsAuthError reports whether err is a server refusing toolproof (HTTP 401 or 403).
func IsAuthError(err error) bool {
	var a *AuthError
	return errors.As(err, &a)
}

// protocolNotes say how the server was spoken to, which form it rejects with (SEP-1303), what
// was retried, and whether it went away.
func (c *Client) protocolNotes(forms map[string]int) []string {
	notes := []string{fmt.Sprintf("MCP over %s, protocol %s (chosen by %s)", c.Transport(), c.protocol, c.negotiated)}
	rejected := 0
	for k, n := range forms {
		if strings.HasPrefix(k, "rejected") {
			rejected += n
		}
	}
	if rpc := c.sep1303.Load(); rpc > 0 {
		what := "a conformance note (--require-sep1303 makes each a finding)"
		if c.opts.SEP1303 {
			what = "each a protocol_error finding (--require-sep1303)"
		}
		notes = append(notes,
			fmt.Sprintf("SEP-1303: %d of %d rejections of object arguments came as JSON-RPC -32602 on protocol %s, "+
				"where input validation errors should be tool results with isError: true so that the model can "+
				"correct itself; counted as rejections all the same; %s", rpc, rejected, c.protocol, what))
	}
	if c.rotated.Load() {
		notes = append(notes, "the server gave a new Mcp-Session-Id on its answers (forgetting the old one): "+
			"the calls were sent one at a time, so that none went with a stale session")
	}
	if c.retried.Load() > 0 {
		// How many is on stderr (Close): the report of a seed is the same whichever calls met a fault.
		notes = append(notes,
			"HTTP requests were sent again after transport faults (connection errors, 5xx, answers to "+
				"other requests); each case kept its own verdict")
	}
	c.mu.Lock()
	gone, notSent := c.gone, c.notSent
	c.mu.Unlock()
	if gone != nil {
		notes = append(notes,
			fmt.Sprintf("%s; %d calls were not sent (counted not applicable, blamed on no case)",
				gone.Error(), notSent))
	}
	return notes
}
