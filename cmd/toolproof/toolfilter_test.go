package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// --tool and --skip-tool apply to every validator and tool file: the built-in reference on the
// corpus checks only the named tools; a name no tool has is an error naming the tools there are.
func TestToolFilterEveryValidator(t *testing.T) {
	r := must(t, 0, "run", "--checks", "5", "--seed", "1", "--tool", "read", "--tool", "bash", "--format", "json")
	var doc struct {
		Reports []struct {
			Tools int `json:"tools"`
		} `json:"reports"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Reports) != 1 {
		t.Fatalf("run --format json: %v\n%s", err, clip(r.stdout))
	}
	if doc.Reports[0].Tools != 2 {
		t.Errorf("--tool read --tool bash: %d tools checked, want 2", doc.Reports[0].Tools)
	}
	r = must(t, 2, "run", "--checks", "5", "--tool", "nosuch")
	if !strings.Contains(r.stderr, "--tool nosuch: no tool has that name; the tools are: ") ||
		!strings.Contains(r.stderr, "read") {
		t.Errorf("--tool nosuch: stderr %q, want an error naming the tools", r.stderr)
	}
	r = must(t, 2, "run", "--checks", "5", "--skip-tool", "nosuch")
	if !strings.Contains(r.stderr, "--skip-tool nosuch: no tool has that name") {
		t.Errorf("--skip-tool nosuch: stderr %q", r.stderr)
	}
	all := must(t, 0, "run", "--checks", "2", "--seed", "1", "--format", "json")
	skipped := must(t, 0, "run", "--checks", "2", "--seed", "1", "--format", "json", "--skip-tool", "read")
	var a, b struct {
		Reports []struct {
			Tools int `json:"tools"`
		} `json:"reports"`
	}
	if json.Unmarshal([]byte(all.stdout), &a) != nil || json.Unmarshal([]byte(skipped.stdout), &b) != nil ||
		b.Reports[0].Tools != a.Reports[0].Tools-1 {
		t.Errorf("--skip-tool read: %v tools, all: %v", b.Reports, a.Reports)
	}
}
