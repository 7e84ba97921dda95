package main

import (
	"strings"
	"testing"
)

// TestRunPointsAtAuditForOpenObjects: a run on open objects (hallucinated_key n/a) points at audit
// and --close under the text report; with --close, or a closed schema, it does not.
func TestRunPointsAtAuditForOpenObjects(t *testing.T) {
	dir := t.TempDir()
	open := writeFile(t, dir, "open.json",
		`{"name":"o","parameters":{"type":"object","properties":{"n":{"type":"integer"}}}}`)
	closed := writeFile(t, dir, "closed.json",
		`{"name":"c","parameters":{"type":"object","additionalProperties":false,`+
			`"properties":{"n":{"type":"integer"}}}}`)
	hint := "objects in these tools are open"
	r := must(t, 0, "run", "--tools", open, "--checks", "5", "--seed", "1")
	if !strings.Contains(r.stdout, hint) || !strings.Contains(r.stdout, " audit --tools FILE") ||
		!strings.Contains(r.stdout, " run --close") {
		t.Errorf("no pointer at audit and --close for an open object:\n%s", clip(r.stdout))
	}
	for _, args := range [][]string{{"--tools", open, "--close"}, {"--tools", closed}} {
		r := must(t, 0, append([]string{"run", "--checks", "5", "--seed", "1"}, args...)...)
		if strings.Contains(r.stdout, hint) {
			t.Errorf("run %v: a pointer at audit for closed objects:\n%s", args, clip(r.stdout))
		}
	}
}
