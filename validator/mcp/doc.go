// Package mcp tests the gate of an MCP server where it runs in production: a *Client starts the
// server (a command speaking MCP over stdio: newline-delimited JSON-RPC 2.0, or any Conn) or
// reaches it over Streamable HTTP (Options.URL, or an http.Handler with StartHandler), speaks
// the newest protocol revision both sides support (2026-07-28 stateless, found with
// server/discover, or 2025-11-25 to 2025-03-26 with initialize), lists its tools, and sends
// every case as a tools/call. The verdict says whether the server's input validation rejected
// the call (JSON-RPC -32602, or an isError result in an SDK's input-validation wording), let it
// run (a plain result), or neither (unclear: an error answer to a valid call is a false_reject or,
// read as an exception, a gate_error).
//
// Calling an MCP server runs its tools, whether it is a command or a URL: point it at a
// sandboxed server.
package mcp
