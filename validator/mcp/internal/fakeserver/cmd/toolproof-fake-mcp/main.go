// Command toolproof-fake-mcp is the fake MCP server of validator/mcp's tests, for trying the client
// by hand: toolproof run --validator "mcp:go run
// ./validator/mcp/internal/fakeserver/cmd/toolproof-fake-mcp lenient". With -http ADDR it serves
// Streamable HTTP instead (dual-era: 2026-07-28 and sessions) and prints its URL on the first line
// of stdout.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this address (127.0.0.1:0 picks a port)")
	var o fakeserver.HTTPOptions
	flag.StringVar(&o.Token, "token", "", "HTTP: require Authorization: Bearer TOKEN")
	flag.BoolVar(&o.SSE, "sse", false, "HTTP: answer as event streams")
	flag.BoolVar(&o.Legacy, "legacy", false, "HTTP: speak only 2025-11-25 and earlier, with sessions")
	flag.BoolVar(&o.EchoAuth, "echo-auth", false, "HTTP: quote the Authorization header in errors and status lines")
	flag.StringVar(&o.FailTool, "fail-tool", "", "HTTP: answer every call of this tool 500 without a JSON-RPC answer")
	flag.IntVar(&o.GoneAfter, "gone-after", 0,
		"HTTP: after this many tools/call requests, close every connection unanswered")
	flag.IntVar(&o.DenyAfter, "deny-after", 0, "HTTP: after this many tools/call requests, answer every request 401")
	flag.BoolVar(&o.Faults.Lag, "lag", false, "HTTP: answer each tools/call with the answer to the one before it")
	flag.IntVar(&o.Faults.FlakyCalls, "flaky", 0,
		"HTTP: fail a tools/call (a 500, a reset) with probability 1/N, once a call")
	flag.BoolVar(&o.Faults.Rotate, "rotate", false, "HTTP, -legacy: give a new Mcp-Session-Id on every answer")
	flag.BoolVar(&o.Faults.Huge, "huge", false, "HTTP: answer every tools/call with a body of 10 GiB")
	flag.Parse()
	if flag.NArg() != 1 || !slices.Contains(fakeserver.Modes, flag.Arg(0)) {
		fmt.Fprintf(os.Stderr,
			"usage: toolproof-fake-mcp [-http ADDR [-token T] [-sse] [-legacy] [-echo-auth]] MODE (one of %s)\n",
			strings.Join(fakeserver.Modes, ", "))
		os.Exit(2)
	}
	mode := flag.Arg(0)
	if *addr != "" {
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("http://%s/mcp\n", ln.Addr())
		fmt.Fprintln(os.Stderr, http.Serve(ln, fakeserver.NewHTTP(mode, o)))
		os.Exit(1)
	}
	os.Exit(fakeserver.Run(mode, os.Stdin, os.Stdout, os.Stderr))
}
