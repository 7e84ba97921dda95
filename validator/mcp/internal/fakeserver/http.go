package fakeserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
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
	// EchoAuth: the lenient mode's errors quote the Authorization header (a secret toolproof
	// must not pass on).
	EchoAuth bool
	// ParamHeader: list ParamTool too, whose region argument the 2026-07-28 revision mirrors
	// into Mcp-Param-Region; a call whose header does not match its body is refused (-32020).
	ParamHeader bool
}

// ParamTool has an x-mcp-header annotation.
var ParamTool = tool.Tool{Name: "run_query", Description: "Run a query in a region.", Parameters: json.RawMessage(`{"type":"object","properties":{` +
	`"region":{"type":"string","enum":["us-west1","eu-west1","Zürich 1"],"x-mcp-header":"Region"},"query":{"type":"string","maxLength":100}},` +
	`"required":["region","query"],"additionalProperties":false}`)}

// HTTPServer is the fake server over Streamable HTTP: dual-era (2026-07-28 for requests with
// the _meta claim, initialize and sessions otherwise) unless Legacy.
type HTTPServer struct {
	mode  string
	opts  HTTPOptions
	gates map[string]*validator.Gatekeeper

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
}

// NewHTTP returns the fake server in mode as an http.Handler.
func NewHTTP(mode string, opts HTTPOptions) *HTTPServer {
	return &HTTPServer{mode: mode, opts: opts, sessions: map[string]int{}, gates: compileTools()}
}

func (s *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.Token {
		w.Header().Set("WWW-Authenticate", `Bearer realm="fake"`)
		http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
		return
	}
	switch r.Method {
	case http.MethodDelete:
		s.mu.Lock()
		id := r.Header.Get("Mcp-Session-Id")
		_, ok := s.sessions[id]
		delete(s.sessions, id)
		s.mu.Unlock()
		if ok {
			s.Deletes.Add(1)
		}
		w.WriteHeader(http.StatusOK)
		return
	case http.MethodPost:
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if n := s.opts.FlakyEvery; n > 0 && s.posts.Add(1)%int64(n) == 0 {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req request
	if json.Unmarshal(body, &req) != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32700, "message": "Parse error"}})
		return
	}
	if req.Method == "tools/call" && s.opts.GoneAfter > 0 && s.calls.Add(1) > int64(s.opts.GoneAfter) {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	modern := req.Params.Meta.ProtocolVersion != "" && !s.opts.Legacy
	if modern {
		if !s.modernHeaders(w, r, req) {
			return
		}
	} else if !s.session(w, r, req) {
		return
	}
	if len(req.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if s.opts.ParamHeader && modern && s.paramTool(w, r, req) {
		return
	}
	var out bytes.Buffer
	write := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(b)
	}
	if s.mode == "lenient" && s.opts.EchoAuth {
		write = func(v any) {
			b, _ := json.Marshal(v)
			b = bytes.Replace(b, []byte("Input validation error: cannot use"), []byte("Input validation error: (auth "+r.Header.Get("Authorization")+") cannot use"), 1)
			out.Write(b)
		}
	}
	if err := handle(s.mode, modern, body, s.gates, write); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if s.opts.SSE {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n")
		fmt.Fprintf(w, ": keep-alive\n\nevent: message\nid: 1\ndata: %s\n\n", out.Bytes())
		return
	}
	writeRaw(w, http.StatusOK, out.Bytes())
}

// modernHeaders checks the 2026-07-28 request headers against the body.
func (s *HTTPServer) modernHeaders(w http.ResponseWriter, r *http.Request, req request) bool {
	s.Modern.Add(1)
	bad := r.Header.Get("MCP-Protocol-Version") != req.Params.Meta.ProtocolVersion || r.Header.Get("Mcp-Method") != req.Method ||
		(req.Method == "tools/call" && r.Header.Get("Mcp-Name") != req.Params.Name)
	if bad {
		writeJSON(w, http.StatusBadRequest, map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32020, "message": "Header mismatch"}})
		return false
	}
	s.ModernHeaders.Add(1)
	return true
}

// session keeps the legacy sessions: initialize opens one, every other request names it.
func (s *HTTPServer) session(w http.ResponseWriter, r *http.Request, req request) bool {
	if s.opts.Stateless {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if req.Method == "initialize" {
		s.next++
		id := "session-" + strconv.Itoa(s.next)
		s.sessions[id] = 0
		w.Header().Set("Mcp-Session-Id", id)
		return true
	}
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32000, "message": "Bad Request: Server not initialized"}})
		return false
	}
	n, ok := s.sessions[id]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32001, "message": "Session not found"}})
		return false
	}
	if s.opts.ExpireEvery > 0 && n >= s.opts.ExpireEvery {
		delete(s.sessions, id)
		s.Expired.Add(1)
		writeJSON(w, http.StatusNotFound, map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32001, "message": "Session not found"}})
		return false
	}
	s.sessions[id] = n + 1
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

// paramTool serves tools/list with ParamTool added and tools/call of ParamTool, checking its
// Mcp-Param-Region header against the body; false: the request is not one of those.
func (s *HTTPServer) paramTool(w http.ResponseWriter, r *http.Request, req request) bool {
	switch {
	case req.Method == "tools/list":
		var list []map[string]any
		for _, t := range append(slices.Clone(Tools), ParamTool) {
			list = append(list, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.Parameters})
		}
		writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"tools": list}})
		return true
	case req.Method != "tools/call" || req.Params.Name != ParamTool.Name:
		return false
	}
	var args struct {
		Region any `json:"region"`
	}
	_ = json.Unmarshal(req.Params.Arguments, &args)
	h, present := r.Header["Mcp-Param-Region"]
	got := strings.Join(h, ",")
	if b, ok := strings.CutPrefix(got, "=?base64?"); ok && strings.HasSuffix(b, "?=") {
		dec, _ := base64.StdEncoding.DecodeString(strings.TrimSuffix(b, "?="))
		got = string(dec)
	}
	var ok bool
	switch v := args.Region.(type) {
	case string:
		ok = present && got == v
	case float64, bool:
		ok = present && got == fmt.Sprint(v)
	default: // absent, null, or no primitive: no header expected
		ok = !present
	}
	if !ok {
		s.ParamMismatched.Add(1)
		writeJSON(w, http.StatusBadRequest, map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32020, "message": "Header mismatch: Mcp-Param-Region"}})
		return true
	}
	s.ParamMatched.Add(1)
	g, _ := validator.Compile(ParamTool)
	v := g.Check(r.Context(), req.Params.Arguments)
	result := map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}
	if !v.Valid {
		result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "Input validation error: Invalid arguments for tool run_query"}}, "isError": true}
	}
	writeJSON(w, http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	return true
}
