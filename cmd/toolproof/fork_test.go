package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/internal/needs"
)

// TestPythonCrashesForked: the python-jsonschema adapter dying on every call that holds "~".
// It offers a fork server, so it is started anew twice (its first process and the server) and
// every process after them is forked; the report is byte-identical to the one
// of the same run with each process started anew, and every crash is blamed on a call with "~".
func TestPythonCrashesForked(t *testing.T) {
	needs.Met(t, "TOOLPROOF_REQUIRE_PYTHON", "the Python adapter", needs.Python())
	spec := "exec:python3 " + filepath.Join("testdata", "pydie.py")
	args := []string{"run", "--validator", spec, "--checks", "5", "--seed", "1", "--format", "json"}
	// The tools on which seed 1 draws a "~": the others would only cost their checks (each tool
	// is drawn on its own, so they draw the same cases alone as in the corpus).
	for _, name := range []string{"create_chart", "create_org_chart", "email_send", "git_commit", "image_generate",
		"memory_store", "todo_write"} {
		args = append(args, "--tool", name)
	}
	report := func(vars ...string) (string, int) {
		starts := filepath.Join(t.TempDir(), "starts")
		t.Setenv("PYDIE_STARTS", starts)
		for _, v := range vars {
			name, value, _ := strings.Cut(v, "=")
			t.Setenv(name, value)
		}
		r := cli(t, args...).want(t, 1, args...)
		return r.stdout, countStarts(starts)
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
		t.Errorf("the report with forked processes differs from the one with processes started anew:\n%s\n---\n%s",
			forked, anew)
	}
}

// BenchmarkPythonCrashes times, side by side in turn, the python-jsonschema adapter healthy and
// dying on every call that holds "~", forked by its fork server and started anew, on the
// embedded corpus at 10 checks; it reports each dying run against the healthy one.
func BenchmarkPythonCrashes(b *testing.B) {
	if why := needs.Python(); why != "" {
		b.Skip(why)
	}
	runs := []struct {
		name, script, nofork string
	}{
		{"healthy", filepath.Join("..", "..", "validator", "python", "jsonschema_adapter.py"), ""},
		{"dies-forked", filepath.Join("testdata", "pydie.py"), ""},
		{"dies-anew", filepath.Join("testdata", "pydie.py"), "1"},
	}
	took := make([]time.Duration, len(runs))
	for i := 0; i < b.N; i++ {
		for k := range runs {
			r := runs[(i+k)%len(runs)]
			b.Setenv("PYDIE_NOFORK", r.nofork)
			t0 := time.Now()
			var out, errOut strings.Builder
			code := run([]string{"run", "--validator", "exec:python3 " + r.script, "--checks", "10", "--seed", "1",
				"--format", "json"}, &out, &errOut)
			if code > 1 {
				b.Fatalf("%s: exit %d: %s", r.name, code, errOut.String())
			}
			took[(i+k)%len(runs)] += time.Since(t0)
		}
	}
	b.ReportMetric(took[0].Seconds()/float64(b.N), "healthy-s/run")
	b.ReportMetric(float64(took[1])/float64(took[0]), "forked/healthy")
	b.ReportMetric(float64(took[2])/float64(took[0]), "anew/healthy")
}
