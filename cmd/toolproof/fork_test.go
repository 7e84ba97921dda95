package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/internal/needs"
)

// TestPythonCrashesForked: the python-jsonschema adapter dying on every call that holds "~".
// It offers a fork server, so it is started anew twice (its first process and the server) and
// every process after them is forked; the report is byte-identical (timings aside) to the one
// of the same run with each process started anew, and every crash is blamed on a call with "~".
func TestPythonCrashesForked(t *testing.T) {
	needs.Met(t, "TOOLPROOF_REQUIRE_PYTHON", "the Python adapter", needs.Python())
	spec := "exec:python3 " + filepath.Join("testdata", "pydie.py")
	args := []string{"run", "--validator", spec, "--checks", "5", "--seed", "1", "--format", "json"}
	report := func(vars ...string) (string, int) {
		starts := filepath.Join(t.TempDir(), "starts")
		t.Setenv("PYDIE_STARTS", starts)
		for _, v := range vars {
			name, value, _ := strings.Cut(v, "=")
			t.Setenv(name, value)
		}
		r := cli(t, args...).want(t, 1, args...)
		return timings.ReplaceAllString(r.stdout, ""), countStarts(starts)
	}
	forked, n := report()
	if n != 2 {
		t.Errorf("the adapter was started anew %d times, want 2: the processes after the first were not all forked", n)
	}
	var doc struct {
		Reports []struct {
			Findings []struct {
				Kind, Args string
				Count      int
			}
		}
	}
	if err := json.Unmarshal([]byte(forked), &doc); err != nil || len(doc.Reports) != 1 {
		t.Fatalf("%v\n%s", err, forked)
	}
	crashes := 0
	for _, f := range doc.Reports[0].Findings {
		if f.Kind != "crash" || !strings.Contains(f.Args, "~") {
			t.Errorf("a %s finding on %s against a gate that only crashes on ~", f.Kind, f.Args)
		}
		crashes += f.Count
	}
	if crashes < 5 {
		t.Fatalf("%d crashes: the test shows nothing", crashes)
	}
	anew, n := report("PYDIE_NOFORK=1")
	if n < crashes {
		t.Errorf("without a fork server: %d starts for %d crashes", n, crashes)
	}
	if anew != forked {
		t.Errorf("the report with forked processes differs from the one with processes started anew:\n%s\n---\n%s", forked, anew)
	}
}
