// Command toolproof-fake-mcp is the fake MCP server of validator/mcp's tests, for trying the
// client by hand: toolproof run --validator "mcp:go run ./validator/mcp/internal/fakeserver/cmd/toolproof-fake-mcp lenient".
package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

func main() {
	if len(os.Args) != 2 || !slices.Contains(fakeserver.Modes, os.Args[1]) {
		fmt.Fprintf(os.Stderr, "usage: toolproof-fake-mcp MODE (one of %s)\n", strings.Join(fakeserver.Modes, ", "))
		os.Exit(2)
	}
	if err := fakeserver.Serve(os.Args[1], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if errors.Is(err, fakeserver.ErrCrash) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}
