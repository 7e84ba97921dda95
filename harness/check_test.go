package harness_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonvalue.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// How a Go team uses toolproof: every tool it exposes, against the gate it runs, in go test.
func TestCheckTheReferenceGate(t *testing.T) {
	set := sample.Tools()
	var some []tool.Tool
	for _, name := range []string{"read", "execute_code", "edit_files", "json_filter", "http_request"} {
		tl, ok := set.Lookup(name)
		if !ok {
			t.Fatalf("no tool %s", name)
		}
		some = append(some, tl)
	}
	harness.Check(t, some, oracle.Reference{}, harness.Options{Siblings: set.Tools})
}

var readTool = tool.Tool{Name: "read", Parameters: json.RawMessage(`{
	"type": "object",
	"properties": {"path": {"type": "string", "minLength": 1}, "limit": {"type": "integer", "minimum": 1}},
	"required": ["path"], "additionalProperties": false}`)}

// TestHelperCheckFails is not a test on its own: TestCheckShrinksSavesAndReplays runs it in a
// child process (it fails, as it must) and reads what it printed.
func TestHelperCheckFails(t *testing.T) {
	dir := os.Getenv("TOOLPROOF_HELPER_CORPUS")
	if dir == "" {
		t.Skip("a helper of TestCheckShrinksSavesAndReplays, run in a child process")
	}
	only, _ := mutators.Select("stringified_type")
	harness.Check(t, []tool.Tool{readTool}, brokenValidators()[0].v, harness.Options{CorpusDir: dir, Mutators: only})
}

func TestCheckShrinksSavesAndReplays(t *testing.T) {
	dir := t.TempDir()
	run := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCheckFails$", "-test.v",
			"-rapid.checks=100", "-rapid.seed=1")
		cmd.Env = append(os.Environ(), "TOOLPROOF_HELPER_CORPUS="+dir)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("Check passed a gate that coerces strings:\n%s", out)
		}
		return string(out)
	}
	out := run()
	for _, want := range []string{"--- FAIL: TestHelperCheckFails/read", "stringified_type missed",
		"expect reject, got accepted", "saved: " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Each finding is printed once, in full.
	if n := strings.Count(out, "stringified_type missed"); n != 1 {
		t.Errorf("the stringified_type finding is printed %d times, want once:\n%s", n, out)
	}
	// The coercing gate has two bugs: it accepts "1" for an integer, and it turns a valid path
	// "0" into the number 0 and then rejects it. Both are found, shrunk to the smallest case
	// and saved.
	cs, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range cs {
		got[string(c.Class)+"/"+string(c.Expect)] = string(c.Args)
	}
	if diff := cmp.Diff([]string{"stringified_type/reject", "valid/accept"}, sortedKeys(got)); diff != "" {
		t.Fatalf("saved cases (-want +got):\n%s", diff)
	}
	if s := got["stringified_type/reject"]; s != `{"limit":"1","path":"a"}` {
		t.Errorf("stringified case not shrunk to the minimum: %s", s)
	}
	// Any one-character path the gate coerces ("0", "1", "t", "f", ...) is minimal.
	gk, _ := oracle.Compile(readTool)
	if s := got["valid/accept"]; len(s) != len(`{"path":"0"}`) || !gk.Valid(mustJSON(t, s)) {
		t.Errorf("false reject not shrunk to a one-character valid path: %s", s)
	}
	if out := run(); !strings.Contains(out, "replayed from the regression corpus") {
		t.Errorf("the saved case was not replayed first:\n%s", out)
	}
}

// CheckFile reads the tools from a file: here the corpus's read tool, against the reference.
func TestCheckFile(t *testing.T) {
	harness.CheckFile(t, "../validator/tool/sample/tools/read.json", oracle.Reference{}, harness.Options{})
}
