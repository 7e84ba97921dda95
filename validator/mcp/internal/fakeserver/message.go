package fakeserver

import "encoding/json"

// request is a JSON-RPC message as the fake server reads it.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Cursor    string          `json:"cursor"`
		Meta      struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

// exchange is one request and where its answer goes.
type exchange struct {
	req   request
	write func(any)
}

// reply answers the request with result.
func (x *exchange) reply(result any) {
	x.write(map[string]any{"jsonrpc": "2.0", "id": x.req.ID, "result": result})
}

// fail answers the request with a JSON-RPC error; data is left out when nil.
func (x *exchange) fail(code int, msg string, data any) {
	x.write(rpcError(x.req.ID, code, msg, data))
}

// rpcError is a JSON-RPC error message for id (nil: "id": null); data is left out when nil.
func rpcError(id json.RawMessage, code int, msg string, data any) map[string]any {
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "error": e}
}

// maxDepth is how deep the null-id mode's JSON reader goes.
const maxDepth = 64

// depth is the deepest nesting of arrays and objects in a JSON text.
func depth(b []byte) int {
	d, most, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			most = max(most, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return most
}
