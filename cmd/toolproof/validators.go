package main

import (
	"fmt"
	"io"
	"os"

	"github.com/toolproof/toolproof/validator/registry"
)

// cmdValidators lists the validators this install can run, and says how to get the ones it cannot.
func cmdValidators(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return usagef("validators takes no arguments")
	}
	o := &registry.Opener{Root: os.Getenv("TOOLPROOF_ROOT"), Version: version}
	entries, missing := o.Listed()
	for _, e := range entries {
		fmt.Fprintf(stdout, "%-20s %s\n", e.Name, e.Describe)
	}
	fmt.Fprintf(stdout, "%-20s %s\n", "builtin:NAME", "a built-in Go validator by name (builtin:reference)")
	fmt.Fprintf(stdout, "%-20s %s\n", "exec:COMMAND ARGS",
		"any program speaking toolproof/1 on stdin/stdout (validator/stdio/PROTOCOL.md)")
	fmt.Fprintf(stdout, "%-20s %s\n", "node:PATH",
		"a module of native tools (zod, valibot, TypeBox, AI SDK, OpenAI Agents SDK, LangChain, Mastra, MCP SDK "+
			"McpServer), each through its own path; serves its tools")
	fmt.Fprintf(stdout, "%-20s %s\n", "mcp:COMMAND ARGS",
		"an MCP server over stdio; every case is a tools/call, so its tools run: sandbox it")
	fmt.Fprintf(stdout, "%-20s %s\n", "mcp:https://HOST/mcp",
		"an MCP server over Streamable HTTP (--header for auth); a URL is as real as a command: its tools run")
	for _, m := range missing {
		fmt.Fprintf(stdout, "\nnot listed: %s\n", m)
	}
	return nil
}
