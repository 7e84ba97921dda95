package fakeserver

import "time"

// Modern is the revision the modern mode speaks.
const Modern = "2026-07-28"

// modern serves what the 2026-07-28 revision answers before the methods every revision shares:
// initialize refused, the _meta protocol version checked, server/discover; false: the request
// goes on to those methods.
func (s *server) modern(x *exchange) bool {
	claimed := x.req.Params.Meta.ProtocolVersion
	switch {
	case x.req.Method == "initialize" && s.mode == "modern-slow":
		unsupported(x, "2025-11-25")
	case x.req.Method == "initialize":
		x.fail(-32601, "initialize is not a method of MCP "+Modern+"; this server speaks only "+Modern, nil)
	case claimed == "":
		x.fail(-32602, "missing _meta io.modelcontextprotocol/protocolVersion", nil)
	case claimed != Modern:
		unsupported(x, claimed)
	case x.req.Method == "server/discover":
		s.discover(x)
	default:
		return false
	}
	return true
}

// unsupported refuses the protocol version requested.
func unsupported(x *exchange, requested string) {
	x.fail(-32022, "Unsupported protocol version",
		map[string]any{"supported": []string{Modern}, "requested": requested})
}

// discover answers server/discover; the modern-slow mode takes 700 ms over its first answer.
func (s *server) discover(x *exchange) {
	if s.mode == "modern-slow" && s.slowDone.CompareAndSwap(false, true) {
		time.Sleep(700 * time.Millisecond)
	}
	x.reply(map[string]any{"resultType": "complete", "supportedVersions": []string{Modern},
		"capabilities": map[string]any{"tools": map[string]any{}},
		"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "fake-modern",
			"version": "0.1"}}})
}
