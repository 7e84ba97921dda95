package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolproof/toolproof/validator/tool"
)

// filterTools keeps the tools --tool names (all when none) less those --skip-tool names, for
// every validator and every tool file alike. A name that matches no tool is a usage error that
// lists the tools there are; so is a filter that leaves nothing.
func filterTools(tools []tool.Tool, only, skip []string) ([]tool.Tool, error) {
	if len(only) == 0 && len(skip) == 0 {
		return tools, nil
	}
	have := map[string]bool{}
	for _, t := range tools {
		have[t.Name] = true
	}
	for _, f := range []struct {
		flag  string
		names []string
	}{{"--tool", only}, {"--skip-tool", skip}} {
		for _, n := range f.names {
			if !have[n] {
				return nil, usagef("%s %s: no tool has that name; the tools are: %s", f.flag, n, toolNames(tools))
			}
		}
	}
	var out []tool.Tool
	for _, t := range tools {
		if (len(only) == 0 || slices.Contains(only, t.Name)) && !slices.Contains(skip, t.Name) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, usagef("--tool/--skip-tool leave no tool to check; the tools are: %s", toolNames(tools))
	}
	return out, nil
}

// toolNames lists the names of tools for a message (the first 50, then a count).
func toolNames(tools []tool.Tool) string {
	const most = 50
	var names []string
	for i, t := range tools {
		if i == most {
			names = append(names, fmt.Sprintf("... and %d more", len(tools)-most))
			break
		}
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}
