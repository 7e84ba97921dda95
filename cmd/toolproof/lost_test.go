//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A --save directory nobody can write (/proc/self, on every Linux) loses no report: stdout and
// every --report file are written, then the run exits 2 naming what was not saved. A --report
// file that cannot be written loses neither the other files nor stdout, and is named too.
func TestSaveFailureKeepsTheReports(t *testing.T) {
	dir := t.TempDir()
	blocked := writeFile(t, dir, "blocked", "a file, not a directory")
	good := filepath.Join(dir, "out", "report.json")
	base := []string{"run", "--validator", execSpec(t), "--tools", corpusTool("read"), "--checks", "10", "--seed", "1",
		"--save", "/proc/self", "--report", "json=" + good}

	r := must(t, 2, base...)
	if !strings.HasPrefix(r.stdout, "FAIL  validator coerce") {
		t.Errorf("stdout holds no report:\n%s", clip(r.stdout))
	}
	if !strings.Contains(r.stderr, "--save: saving the minimal cases in /proc/self") ||
		!strings.Contains(r.stderr, "the report is written") {
		t.Errorf("stderr does not name the failed save:\n%s", r.stderr)
	}
	var doc map[string]any
	if b, err := os.ReadFile(good); err != nil || json.Unmarshal(b, &doc) != nil {
		t.Errorf("--report json=%s: not written whole (%v)", good, err)
	}

	os.Remove(good)
	r = must(t, 2, append(base, "--report", "text="+filepath.Join(blocked, "report.txt"))...)
	if !strings.HasPrefix(r.stdout, "FAIL  validator coerce") {
		t.Errorf("with a --report file that cannot be written, stdout holds no report:\n%s", clip(r.stdout))
	}
	if _, err := os.Stat(good); err != nil {
		t.Errorf("with another --report file that cannot be written, %s is not written: %v", good, err)
	}
	if !strings.Contains(r.stderr, "--save: saving") || !strings.Contains(r.stderr, "--report text="+blocked) {
		t.Errorf("stderr does not name both failures:\n%s", r.stderr)
	}
	if es, _ := os.ReadDir(filepath.Dir(good)); len(es) != 1 {
		t.Errorf("%s holds %d entries, want the report alone (no temporary file left)", filepath.Dir(good), len(es))
	}
}
