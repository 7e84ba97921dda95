// Command gosdk-server serves the Go SDK example server (examples.GoSDK) on stdin and stdout:
// toolproof run --validator "mcp:go run ./cmd/gosdk-server" (from validator/mcp/gosdk).
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolproof/toolproof/validator/mcp/gosdk/examples"
)

func main() {
	if err := examples.GoSDK().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
