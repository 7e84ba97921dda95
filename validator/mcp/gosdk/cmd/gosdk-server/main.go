// Command gosdk-server serves the Go SDK example server (examples.GoSDK) on stdin and stdout:
// toolproof run --validator "mcp:go run ./cmd/gosdk-server" (from validator/mcp/gosdk). With
// -http ADDR it serves Streamable HTTP instead (sessions and event streams, or -stateless with
// JSON answers, which speaks 2026-07-28) and prints its URL on the first line of stdout.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolproof/toolproof/validator/mcp/gosdk/examples"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this address (127.0.0.1:0 picks a port)")
	stateless := flag.Bool("stateless", false, "HTTP: stateless, JSON answers")
	flag.Parse()
	if *addr == "" {
		if err := examples.GoSDK().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	server := examples.GoSDK()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: *stateless, JSONResponse: *stateless})
	log.Fatal(http.Serve(ln, h))
}
