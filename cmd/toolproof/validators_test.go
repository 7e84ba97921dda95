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

// TestValidatorsListsOnlyWhatRuns: outside a checkout (no TOOLPROOF_ROOT) with an empty cache, as
// after `go install ./cmd/toolproof` or from the npm package, the Go zoo is not listed and one line
// says how to get it; the validators this binary carries are.
func TestValidatorsListsOnlyWhatRuns(t *testing.T) {
	t.Setenv("TOOLPROOF_ROOT", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	out := must(t, 0, "validators").stdout
	for _, e := range registry.Entries() {
		listed := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(e.Name) + `\s+\S`).MatchString(out)
		if listed == (e.Kind == "go-zoo") {
			t.Errorf("validators outside a checkout: %s (%s) listed %v:\n%s", e.Name, e.Kind, listed, out)
		}
	}
	if !regexp.MustCompile(`(?m)^not listed: the Go validator zoo \(gojsonschema, .*json-struct-strict\) ` +
		`.*TOOLPROOF_ROOT`).MatchString(out) {
		t.Errorf("validators outside a checkout does not say how to get the zoo:\n%s", out)
	}
}
