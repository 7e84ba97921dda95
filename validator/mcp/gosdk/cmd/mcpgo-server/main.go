// Command mcpgo-server serves the mark3labs/mcp-go example server (examples.MCPGo) on stdin and
// stdout; -validate turns on server.WithInputSchemaValidation.
package main

import (
	"flag"
	"log"

	"github.com/mark3labs/mcp-go/server"

	"github.com/toolproof/toolproof/validator/mcp/gosdk/examples"
)

func main() {
	validate := flag.Bool("validate", false,
		"validate arguments against the input schema (server.WithInputSchemaValidation)")
	flag.Parse()
	if err := server.ServeStdio(examples.MCPGo(*validate)); err != nil {
		log.Fatal(err)
	}
}
