package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// audit names a pattern that not every regex dialect reads alike, with its place, in text and
// in JSON.
func TestAuditWarnsOfDialectPatterns(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "ci.json", `{"name":"ci","description":"x","parameters":{"type":"object","properties":{"name":{"type":"string","pattern":"(?i)^abc$"}}}}`)
	r := cli(t, "audit", "--tools", f)
	if r.code != 0 || !strings.Contains(r.stdout, `pattern "(?i)^abc$" at /properties/name/pattern`) {
		t.Errorf("audit text: exit %d, no warning naming the pattern and its place:\n%s", r.code, r.stdout)
	}
	r = cli(t, "audit", "--tools", f, "--format", "json")
	var doc struct {
		Tools []struct {
			Patterns []string `json:"pattern_warnings"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Tools) != 1 || len(doc.Tools[0].Patterns) != 1 {
		t.Errorf("audit json: %v, %+v", err, doc)
	}
}
