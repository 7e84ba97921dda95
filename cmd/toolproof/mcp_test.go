package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeMCP builds the fake MCP server of validator/mcp and returns the --validator value that
// runs it in mode.
func fakeMCP(t *testing.T, mode string) string {
	t.Helper()
	bin := filepath.Join(binDir, "fake-mcp")
	cmd := exec.Command("go", "build", "-o", bin, "../../validator/mcp/internal/fakeserver/cmd/toolproof-fake-mcp")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return "mcp:'" + bin + "' " + mode
}

func TestRunMCP(t *testing.T) {
	args := []string{"run", "--validator", fakeMCP(t, "lenient"), "--checks", "10", "--seed", "1", "--format", "json"}
	r := decodeReport(t, must(t, 1, args...).stdout)
	found := map[string]bool{}
	for _, f := range r.Findings {
		found[f.Class+" "+f.Kind] = true
	}
	if !found["stringified_type missed"] || !found["hallucinated_key missed"] || r.Tools != 2 {
		t.Errorf("the lenient server's report: %d tools, findings %v", r.Tools, r.Findings)
	}
	var doc struct{ Reports []struct{ Notes []string } }
	json.Unmarshal([]byte(cli(t, args...).stdout), &doc)
	if len(doc.Reports) != 1 || !strings.Contains(strings.Join(doc.Reports[0].Notes, "\n"), "answers by form") {
		t.Errorf("no note on the forms of the answers: %+v", doc.Reports)
	}
	must(t, 0, "run", "--validator", fakeMCP(t, "correct"), "--checks", "10", "--seed", "1", "--tool", "set_alarm")
	if r := must(t, 2, "run", "--validator", fakeMCP(t, "correct"), "--reject-pattern", "("); !strings.Contains(r.stderr, "--reject-pattern") {
		t.Errorf("a bad pattern: %s", r.stderr)
	}
}
