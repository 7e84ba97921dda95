package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator/registry"
)

func TestValidatorsListsEveryName(t *testing.T) {
	out := must(t, 0, "validators").stdout
	for _, e := range registry.Entries() {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(e.Name) + `\s+\S`).MatchString(out) {
			t.Errorf("validators does not list %s:\n%s", e.Name, out)
		}
	}
	for _, s := range []string{"builtin:NAME", "exec:COMMAND"} {
		if !strings.Contains(out, s) {
			t.Errorf("validators does not mention %s", s)
		}
	}
	// node: names every framework whose tools it understands, as toolproof -h does.
	node := regexp.MustCompile(`(?m)^node:PATH\s.*$`).FindString(out)
	for _, fw := range []string{"zod", "TypeBox", "AI SDK", "OpenAI Agents SDK", "LangChain", "Mastra", "McpServer"} {
		if !strings.Contains(node, fw) {
			t.Errorf("validators: node:PATH does not name %s: %q", fw, node)
		}
	}
}
