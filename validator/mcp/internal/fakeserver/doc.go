// Package fakeserver is a small MCP server over newline-delimited JSON-RPC (Serve, Run) and over
// Streamable HTTP (NewHTTP), stdlib only, with modes that test the client: a correct gate, a
// planted-lenient one, and broken servers (hang, garbage, no tools, crashes, paging, other
// protocol versions). One table maps each method to its handler (server.go).
package fakeserver
