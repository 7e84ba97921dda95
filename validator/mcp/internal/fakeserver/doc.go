// Package fakeserver is a small MCP server over newline-delimited JSON-RPC (stdlib only) with
// modes that test the client: a correct gate, a planted-lenient one, and broken servers (hang,
// garbage, no tools, crashes, paging, other protocol versions).
package fakeserver
