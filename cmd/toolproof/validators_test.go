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
}
