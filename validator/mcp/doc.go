// Package mcp tests the gate of an MCP server where it runs in production: a *Client starts the
// server (a command speaking MCP over stdio: newline-delimited JSON-RPC 2.0, or any Conn),
// initialises it, lists its tools, and sends every case as a tools/call. The verdict says whether
// the server's input validation rejected the call (JSON-RPC -32602, or an isError result in an
// SDK's input-validation wording), let it run (a plain result), or neither (unclear).
//
// Calling an MCP server runs its tools: point it at a sandboxed server.
package mcp
