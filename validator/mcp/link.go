package mcp

import (
	"context"
	"time"
)

// A link carries JSON-RPC requests to one session of a server: a process's stdin and stdout
// (session) or a Streamable HTTP endpoint (httpLink).
type link interface {
	// call sends one request and waits for its response.
	call(ctx context.Context, req request, timeout time.Duration) (response, outcome)
	// notify sends a notification.
	notify(method string, params []byte) error
	// kill ends the session on purpose; calls in flight on it see it ended with why.
	kill(why string)
	// ended is closed once the session has ended.
	ended() <-chan struct{}
	// reason is why the session ended ("" while it runs); killed: toolproof ended it.
	reason() (why string, killed bool)
	// strays says how many messages could not be used, and the first.
	strays() (int, string)
}

// request is one JSON-RPC request: params is the raw params text (nil: none); name is the tool
// a tools/call names; version, for a request of the 2026-07-28 revision or later, is the
// revision its _meta names (over HTTP: the MCP-Protocol-Version, Mcp-Method and Mcp-Name
// headers).
type request struct {
	id      int64
	method  string
	params  []byte
	name    string
	version string
	// paramHeaders are the Mcp-Param-* headers of a tools/call (x-mcp-header), over HTTP.
	paramHeaders map[string]string
}

// dead reports whether a link's session has ended.
func dead(l link) bool {
	select {
	case <-l.ended():
		return true
	default:
		return false
	}
}
