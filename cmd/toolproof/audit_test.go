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

// run and gen warn of the same pattern on stderr, naming the tool, the file and the place, and
// go on with the tool; a lookaround, which the oracle cannot compile, is named once.
func TestRunAndGenWarnOfDialectPatterns(t *testing.T) {
	dir := t.TempDir()
	ci := writeFile(t, dir, "ci.json", `{"name":"ci","description":"x","parameters":{"type":"object","properties":{"name":{"type":"string","pattern":"(?i)^abc$"}}}}`)
	want := `tool "ci" (` + ci + `): pattern "(?i)^abc$" at /properties/name/pattern: inline flags`
	for _, args := range [][]string{
		{"run", "--tools", ci, "--checks", "3", "--seed", "1"},
		{"gen", "--tools", ci, "--n", "2"},
	} {
		r := cli(t, args...)
		if r.code != 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, stderr without %q:\n%s", args[0], r.code, want, r.stderr)
		}
	}
	la := writeFile(t, dir, "la.json", `{"name":"la","description":"x","parameters":{"type":"object","properties":{"name":{"type":"string","pattern":"^(?=a)ab$"}}}}`)
	r := cli(t, "gen", "--tools", la, "--n", "2")
	if n := strings.Count(r.stderr, `pattern "^(?=a)ab$"`); n != 1 {
		t.Errorf("a lookaround pattern named %d times, want once:\n%s", n, r.stderr)
	}
}
