package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/internal/cputime"
)

// crashReport is the part of run --format json the crash test reads.
type crashReport struct {
	Passed   bool `json:"passed"`
	Findings []struct {
		Tool, Class, Kind, Args string
		Blocking                bool
	} `json:"findings"`
	Notes []string `json:"notes"`
}

// TestCrashIsBlamedOnTheCallThatCausesIt: an otherwise correct adapter that dies on every call
// whose arguments hold one key. Calls in flight at the death are run again alone, so each crash
// finding is a call that holds the key, whichever tools were in flight beside it.
func TestCrashIsBlamedOnTheCallThatCausesIt(t *testing.T) {
	const key = "timeoutSeconds"
	spec := execSpec(t, "-strict", "-die-on", key)
	outputs := map[string]string{}
	for _, jobs := range []string{"1", "2"} {
		r := cli(t, "run", "--validator", spec, "--checks", "6", "--seed", "3", "--jobs", jobs, "--format", "json")
		outputs[jobs] = r.stdout
		if r.code != 1 {
			t.Fatalf("--jobs %s: exit %d, want 1 (crash findings)\n%s", jobs, r.code, r.stderr)
		}
		var doc struct{ Reports []crashReport }
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Reports) != 1 {
			t.Fatalf("--jobs %s: %v\n%s", jobs, err, r.stdout)
		}
		rep := doc.Reports[0]
		crashes := 0
		for _, f := range rep.Findings {
			if !f.Blocking {
				continue
			}
			if f.Kind != "crash" {
				t.Errorf("--jobs %s: a %s finding against a gate that only crashes: %s %s %s", jobs, f.Kind, f.Tool, f.Class, f.Args)
				continue
			}
			crashes++
			if !strings.Contains(f.Args, key) {
				t.Errorf("--jobs %s: crash blamed on a call without %q: %s %s %s", jobs, key, f.Tool, f.Class, f.Args)
			}
		}
		if crashes == 0 {
			t.Errorf("--jobs %s: no crash found, though every execute_code call with %q kills the adapter", jobs, key)
		}
	}
	// The same seed, the same report, crashes and all, whatever the number of jobs.
	if a, b := timings.ReplaceAllString(outputs["1"], ""), timings.ReplaceAllString(outputs["2"], ""); a != b {
		t.Errorf("--jobs 1 and --jobs 2 give different reports (-jobs 1 +jobs 2):\n%s", cmp.Diff(a, b))
	}
}

// timings matches the parts of a JSON report that may differ from run to run.
var timings = regexp.MustCompile(`"(elapsed|duration|seconds|time)[a-z_]*":\s*[0-9.e+-]+`)

// TestSameSeedSameReport: one external validator, run twice with --jobs 2 and the same seed,
// gives byte-identical JSON reports (timings aside), findings, minimal cases and ids included.
func TestSameSeedSameReport(t *testing.T) {
	spec := execSpec(t)
	var first string
	for i := 0; i < 2; i++ {
		r := cli(t, "run", "--validator", spec, "--checks", "10", "--seed", "5", "--jobs", "2", "--format", "json")
		if r.code != 1 {
			t.Fatalf("exit %d, want 1: the coercing adapter has findings\n%s", r.code, r.stderr)
		}
		out := timings.ReplaceAllString(r.stdout, `"$1": 0`)
		if i == 0 {
			first = out
			continue
		}
		if out != first {
			t.Errorf("two runs with --seed 5 --jobs 2 differ (-want +got):\n%s", cmp.Diff(first, out))
		}
	}
}

// BenchmarkCrashingValidator: the whole run of the embedded corpus against a correct adapter,
// and against the same adapter dying on one call in a hundred (restarted, each call in flight
// run again alone). Compare the two ns/op: the cost of crashes. The CPU metrics tell
// toolproof's share (self-cpu-ms/run) from the adapter's (adapter-cpu-ms/run, its start-ups
// included), and starts/run counts the adapter's processes: each call that kills it kills two,
// the one it was sent to and the one that runs it alone. With two jobs (the default here) the
// two cores are busy; with one (jobs=1), a core is left for the warm spares to start on.
func BenchmarkCrashingValidator(b *testing.B) {
	for _, bc := range []struct{ name, flags, jobs string }{
		{"healthy", "-strict", "2"},
		{"dies-on-1pct", "-strict -die-rate 100", "2"},
		{"healthy/jobs=1", "-strict", "1"},
		{"dies-on-1pct/jobs=1", "-strict -die-rate 100", "1"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			starts := filepath.Join(b.TempDir(), "starts")
			spec := "exec:'" + adapter(b) + "' " + bc.flags + " -log-starts '" + starts + "'"
			cs := 0
			self0, _ := cputime.Self()
			children0, _ := cputime.Children()
			for i := 0; i < b.N; i++ {
				var out, errOut strings.Builder
				code := run([]string{"run", "--validator", spec, "--checks", "20", "--seed", "1", "--jobs", bc.jobs, "--format", "json"}, &out, &errOut)
				if code > 1 {
					b.Fatalf("exit %d: %s", code, errOut.String())
				}
				var doc struct {
					Reports []struct {
						Cases int `json:"cases"`
					}
				}
				if err := json.Unmarshal([]byte(out.String()), &doc); err != nil || len(doc.Reports) != 1 {
					b.Fatal(err)
				}
				cs = doc.Reports[0].Cases
			}
			b.StopTimer()
			self1, _ := cputime.Self()
			children1, _ := cputime.Children()
			log, _ := os.ReadFile(starts)
			n := float64(b.N)
			b.ReportMetric(float64(cs), "cases/run")
			b.ReportMetric(float64(bytes.Count(log, []byte("\n")))/n, "starts/run")
			b.ReportMetric(float64((self1-self0).Milliseconds())/n, "self-cpu-ms/run")
			b.ReportMetric(float64((children1-children0).Milliseconds())/n, "adapter-cpu-ms/run")
		})
	}
}
