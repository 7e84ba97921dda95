package fakeserver

import (
	"encoding/json"
	"sync/atomic"

	"github.com/toolproof/toolproof/validator/oracle"
)

// server is the fake server's state in one mode, shared by its stdio and HTTP forms.
type server struct {
	mode  string
	gates map[string]*oracle.Gatekeeper
	// slowDone: the modern-slow mode has made its one slow answer.
	slowDone atomic.Bool
}

func newServer(mode string) *server {
	return &server{mode: mode, gates: compileTools()}
}

// handler answers one request; a non-nil error ends the server (the crash mode's ErrCrash).
type handler func(*server, *exchange) error

// methods are the handlers of the methods every revision serves.
var methods = map[string]handler{
	"initialize": (*server).initialize,
	"tools/list": (*server).list,
	"tools/call": (*server).call,
	"ping":       (*server).ping,
}

// handle answers one message; modern: the request is served in the 2026-07-28 revision.
func (s *server) handle(modern bool, line []byte, write func(any)) error {
	x := &exchange{write: write}
	if err := json.Unmarshal(line, &x.req); err != nil || (s.mode == "null-id" && depth(line) > maxDepth) {
		write(rpcError(nil, -32700, "Parse error", nil))
		return nil
	}
	if len(x.req.ID) == 0 {
		return nil // a notification
	}
	if modern && s.modern(x) {
		return nil
	}
	h, ok := methods[x.req.Method]
	if !ok {
		x.fail(-32601, "method not found", nil)
		return nil
	}
	return h(s, x)
}

// initialize agrees to 2025-11-25, or to the version the mode names.
func (s *server) initialize(x *exchange) error {
	v := "2025-11-25"
	switch s.mode {
	case "hang-init":
		return nil
	case "old":
		v = "2025-03-26"
	case "bad-version":
		v = "1999-01-01"
	}
	x.reply(map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{}},
		"serverInfo": map[string]any{"name": "fake-" + s.mode, "version": "0.1"}})
	return nil
}

func (s *server) ping(x *exchange) error {
	x.reply(map[string]any{})
	return nil
}
