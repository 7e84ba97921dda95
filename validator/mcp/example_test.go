package mcp_test

import (
	"fmt"
	"io"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// A Go server's Streamable HTTP handler, checked as a remote client meets it.
func ExampleStartHandler() {
	c, err := mcp.StartHandler(fakeserver.NewHTTP("correct", fakeserver.HTTPOptions{}), mcp.Options{Stderr: io.Discard})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	fmt.Println(c.Transport(), c.Protocol())
	tools, _ := c.Tools()
	rep, err := harness.Run(tools, c, harness.Options{Checks: 10, Seed: 1})
	fmt.Println(rep.Passed, err)
	// Output:
	// Streamable HTTP 2026-07-28
	// true <nil>
}

// Header values may come from the environment; they are never shown.
func ExampleParseHeaders() {
	env := map[string]string{"MCP_TOKEN": "tok-123456"}
	h, err := mcp.ParseHeaders([]string{"Authorization: Bearer $MCP_TOKEN"}, func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	})
	fmt.Println(h.Get("Authorization") == "Bearer tok-123456", err)
	_, err = mcp.ParseHeaders([]string{"Authorization Bearer tok-123456"}, nil)
	fmt.Println(err)
	// Output:
	// true <nil>
	// --header #1: want 'NAME: VALUE' (the value is not shown)
}
