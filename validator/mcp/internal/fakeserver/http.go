package fakeserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// HTTPOptions shape the Streamable HTTP form of the fake server.
type HTTPOptions struct {
	Token     string // "": no auth; else every request needs "Authorization: Bearer TOKEN"
	SSE       bool   // answer requests as an event stream (a notification, then the answer)
	Stateless bool   // legacy revisions without Mcp-Session-Id
	// Legacy: speak only 2025-11-25 and earlier (server/discover without a session is a 400
	// without a modern error, as the TypeScript SDK 1.x answers).
	Legacy bool
	// ExpireEvery: a session is forgotten after this many requests (the next gets 404).
	ExpireEvery int
	// FlakyEvery: every this-many-th POST is answered 503 first.
	FlakyEvery int
	// GoneAfter: after this many tools/call requests every connection is closed unanswered.
	GoneAfter int
	// DenyAfter: after this many tools/call requests every request is answered 401 (a token
	// revoked or expired in the middle of a run).
	DenyAfter int
	// EchoAuth: the lenient mode's errors quote the Authorization header (a secret toolproof
	// must not pass on), and so does the reason phrase of a 401 and of FailTool's 500.
	EchoAuth bool
	// FailTool: every tools/call of the tool of this name is answered 500 without a JSON-RPC
	// answer (the server failed it).
	FailTool string
	// ParamHeader: list ParamTool too, whose region argument the 2026-07-28 revision mirrors
	// into Mcp-Param-Region; a call whose header does not match its body is refused (-32020).
	ParamHeader bool
	// Faults are its transport faults.
	Faults TransportFaults
}

// HTTPServer is the fake server over Streamable HTTP: dual-era (2026-07-28 for requests with
// the _meta claim, initialize and sessions otherwise) unless Legacy.
type HTTPServer struct {
	srv  *server
	opts HTTPOptions

	mu       sync.Mutex
	sessions map[string]int // id -> requests served
	next     int
	posts    atomic.Int64
	calls    atomic.Int64
	// Deletes counts DELETE requests that ended a session.
	Deletes atomic.Int64
	// Expired counts sessions forgotten by ExpireEvery.
	Expired atomic.Int64
	// Modern counts requests served in the 2026-07-28 revision; ModernHeaders those whose
	// MCP-Protocol-Version, Mcp-Method and Mcp-Name matched the body.
	Modern, ModernHeaders atomic.Int64
	// ParamMatched and ParamMismatched count run_query calls by their Mcp-Param-Region.
	ParamMatched, ParamMismatched atomic.Int64
	faults                        *faults
}

// NewHTTP returns the fake server in mode as an http.Handler.
func NewHTTP(mode string, opts HTTPOptions) *HTTPServer {
	return &HTTPServer{srv: newServer(mode), opts: opts, sessions: map[string]int{}, faults: newFaults(opts.Faults)}
}

// FaultsMade counts the calls answered 500 by Faults.FlakyCalls and the bytes written by
// Faults.Huge.
func (s *HTTPServer) FaultsMade() (failed, written int64) {
	return s.faults.Failed.Load(), s.faults.Written.Load()
}

// ServeHTTP checks the bearer token, then serves a POST (one JSON-RPC message) or a DELETE
// (the end of a session).
func (s *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.Token {
		s.deny(w, r)
		return
	}
	switch r.Method {
	case http.MethodDelete:
		s.endSession(w, r)
	case http.MethodPost:
		s.post(w, r)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// deny answers 401, its reason phrase quoting the Authorization header with EchoAuth.
func (s *HTTPServer) deny(w http.ResponseWriter, r *http.Request) {
	if s.opts.EchoAuth {
		s.rawStatus(w, r, http.StatusUnauthorized, "Unauthorized")
		return
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="fake"`)
	http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
}

// cutOff counts a tools/call and answers it as GoneAfter or DenyAfter say once their count is
// passed; false when the call is to be served.
func (s *HTTPServer) cutOff(w http.ResponseWriter, r *http.Request) bool {
	n := s.calls.Add(1)
	switch {
	case s.opts.GoneAfter > 0 && n > int64(s.opts.GoneAfter):
		hangUp(w)
	case s.opts.DenyAfter > 0 && n > int64(s.opts.DenyAfter):
		s.deny(w, r)
	default:
		return false
	}
	return true
}

// post serves one JSON-RPC message: the options' failures first, then the revision's headers
// or session, then the answer.
func (s *HTTPServer) post(w http.ResponseWriter, r *http.Request) {
	if n := s.opts.FlakyEvery; n > 0 && s.posts.Add(1)%int64(n) == 0 {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req request
	if json.Unmarshal(body, &req) != nil {
		writeJSON(w, http.StatusBadRequest, rpcError(nil, -32700, "Parse error", nil))
		return
	}
	if req.Method == "tools/call" && s.cutOff(w, r) {
		return
	}
	if s.faults.refuseInit(req) {
		http.Error(w, "no more sessions", http.StatusInternalServerError)
		return
	}
	modern := req.Params.Meta.ProtocolVersion != "" && !s.opts.Legacy
	admitted := s.session
	if modern {
		admitted = s.modernHeaders
	}
	if !admitted(w, r, req) {
		return
	}
	switch {
	case len(req.ID) == 0:
		w.WriteHeader(http.StatusAccepted)
	case req.Method == "tools/call" && s.opts.FailTool != "" && req.Params.Name == s.opts.FailTool:
		s.rawStatus(w, r, http.StatusInternalServerError, "Internal Error")
	case req.Method == "tools/call" && s.faults.flaky(w, req):
	case req.Method == "tools/call" && s.opts.Faults.Huge:
		s.faults.huge(w)
	case s.opts.ParamHeader && modern && s.paramTool(w, r, req):
	default:
		s.answer(w, r, body, modern)
	}
}

// rawStatus answers with a status line of its own writing, as a proxy may write it: with
// EchoAuth its reason phrase and its body quote the Authorization header.
func (s *HTTPServer) rawStatus(w http.ResponseWriter, r *http.Request, code int, reason string) {
	if s.opts.EchoAuth {
		reason += " " + r.Header.Get("Authorization")
	}
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	body := "failed: " + reason
	fmt.Fprintf(buf, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		code, reason, len(body), body)
	buf.Flush()
}

// hangUp closes the connection unanswered.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			c.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// answer writes the fake server's answer to body, as JSON or as an event stream.
func (s *HTTPServer) answer(w http.ResponseWriter, r *http.Request, body []byte, modern bool) {
	var out bytes.Buffer
	write := func(v any) {
		b, _ := json.Marshal(v)
		if s.srv.mode == "lenient" && s.opts.EchoAuth {
			b = bytes.Replace(b, []byte("Input validation error: cannot use"),
				[]byte("Input validation error: (auth "+r.Header.Get("Authorization")+") cannot use"), 1)
		}
		out.Write(b)
	}
	if err := s.srv.handle(modern, body, write); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if s.opts.Faults.Lag && bytes.Contains(body, []byte(`"method":"tools/call"`)) {
		b := s.faults.lagged(out.Bytes())
		out.Reset()
		out.Write(b)
	}
	if s.opts.SSE {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","+
			"\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n")
		fmt.Fprintf(w, ": keep-alive\n\nevent: message\nid: 1\ndata: %s\n\n", out.Bytes())
		return
	}
	writeRaw(w, http.StatusOK, out.Bytes())
}

// modernHeaders checks the 2026-07-28 request headers against the body.
func (s *HTTPServer) modernHeaders(w http.ResponseWriter, r *http.Request, req request) bool {
	s.Modern.Add(1)
	bad := r.Header.Get("MCP-Protocol-Version") != req.Params.Meta.ProtocolVersion ||
		r.Header.Get("Mcp-Method") != req.Method ||
		(req.Method == "tools/call" && r.Header.Get("Mcp-Name") != req.Params.Name)
	if bad {
		writeJSON(w, http.StatusBadRequest, rpcError(req.ID, -32020, "Header mismatch", nil))
		return false
	}
	s.ModernHeaders.Add(1)
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
