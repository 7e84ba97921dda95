package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/internal/cputime"
	"github.com/toolproof/toolproof/validator/stdio"
	"github.com/toolproof/toolproof/validator/tool/sample"
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
				t.Errorf("--jobs %s: a %s finding against a gate that only crashes: %s %s %s", jobs, f.Kind,
					f.Tool, f.Class, f.Args)
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
	if a, b := outputs["1"], outputs["2"]; a != b {
		t.Errorf("--jobs 1 and --jobs 2 give different reports (-jobs 1 +jobs 2):\n%s", cmp.Diff(a, b))
	}
}

// TestCrashCostsOneStart: an adapter that dies on every call holding "~" (a character many
// drawn strings hold). Once the run has a proven crash, each draw's valid case runs alone
// first, so each crash reported costs the one death that proves it: the adapter is started
// hardly more often than it crashes (its first start and a warm spare, the first starts of the
// stdio.AloneProcesses processes that run calls alone, at most stdio.SpareLimit() spares of
// theirs never used, and the deaths of the calls in flight before the first crash was proven),
// not twice per crash or more. Every crash is still blamed on a call with "~".
func TestCrashCostsOneStart(t *testing.T) {
	starts := filepath.Join(t.TempDir(), "starts")
	spec := execSpec(t, "-strict", "-die-on", "~", "-log-starts", "'"+starts+"'")
	r := cli(t, "run", "--validator", spec, "--checks", "10", "--seed", "1", "--jobs", "1", "--format", "json")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (crash findings)\n%s", r.code, r.stderr)
	}
	var doc struct {
		Reports []struct {
			Findings []struct {
				Kind, Args string
				Count      int
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Reports) != 1 {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	crashes := 0
	for _, f := range doc.Reports[0].Findings {
		if f.Kind != "crash" || !strings.Contains(f.Args, "~") {
			t.Errorf("a %s finding on %s against a gate that only crashes on ~", f.Kind, f.Args)
		}
		crashes += f.Count
	}
	n := countStarts(starts)
	t.Logf("%d crashes, %d starts", crashes, n)
	if crashes < 5 {
		t.Fatalf("%d crashes: the test shows nothing", crashes)
	}
	if n > crashes+4+stdio.AloneProcesses+stdio.SpareLimit() {
		t.Errorf("%d starts of the adapter for %d crashes: a crash costs more than the death that proves it",
			n, crashes)
	}
}

// TestSameSeedSameReport: one external validator, run with --jobs 2 and the same seed three
// times, and with two processes of a small window, gives byte-identical JSON reports, findings,
// minimal cases, ids and counts of timeouts included (a JSON report holds no timing).
func TestSameSeedSameReport(t *testing.T) {
	spec := execSpec(t)
	var first string
	for i, extra := range [][]string{nil, nil, nil, {"--processes", "2", "--window", "4"}} {
		args := append([]string{"run", "--validator", spec, "--checks", "10", "--seed", "5", "--jobs", "2",
			"--format", "json"}, extra...)
		r := cli(t, args...)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1: the coercing adapter has findings\n%s", r.code, r.stderr)
		}
		out := r.stdout
		if i == 0 {
			first = out
			continue
		}
		if out != first {
			t.Errorf("run %d (%s) differs from the first with --seed 5 --jobs 2 (-want +got):\n%s", i+1,
				strings.Join(args[1:], " "), cmp.Diff(first, out))
		}
	}
}

// BenchmarkCrashingValidator: the whole run of the embedded corpus against a correct adapter,
// and against the same adapter dying on one call in a hundred (restarted, each call in flight
// run again alone), or on every call holding "~" (dies-on-tilde: a valid value that holds it
// crashes it with all its distortions). Compare the ns/op: the cost of crashes. The CPU
// metrics tell toolproof's share (self-cpu-ms/run) from the adapter's (adapter-cpu-ms/run, its
// start-ups included), and starts/run counts the adapter's processes: a call that kills it
// beside others kills two, the one it was sent to and the one that runs it alone; a valid case
// sent alone first (once the run has a proven crash) kills one. With two jobs (the default
// here) the two cores are busy; with one (jobs=1), a core is left for the warm spares to start
// on.
//
// healthy+starts is the floor of any way to blame crashes: the healthy run while the adapter
// is started beside it as many times as the dying run starts it, each start saying hello,
// compiling one tool (the corpus's tools in turn) and answering one call, spread evenly over
// the run. What the dying run costs beyond it is toolproof's handling of the deaths.
//
// side-by-side times the three in each iteration, in an order that turns, and reports their
// ratios, so that drift of the machine's speed does not bias them: dies/healthy is the cost of
// crashes, floor/healthy the part of it the adapter's own restarts take, and share/healthy,
// (dies - floor) / healthy, the part toolproof adds.
func BenchmarkCrashingValidator(b *testing.B) {
	for _, bc := range []struct {
		name, flags, jobs string
		starts            bool
	}{
		{"healthy", "-strict", "2", false},
		{"dies-on-1pct", "-strict -die-rate 100", "2", false},
		{"dies-on-tilde", "-strict -die-on ~", "2", false},
		{"healthy+starts", "-strict", "2", true},
		{"healthy/jobs=1", "-strict", "1", false},
		{"dies-on-1pct/jobs=1", "-strict -die-rate 100", "1", false},
		{"healthy+starts/jobs=1", "-strict", "1", true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var fl floor
			if bc.starts {
				fl = measureFloor(b, bc.jobs)
				b.ResetTimer()
			}
			starts := filepath.Join(b.TempDir(), "starts")
			cs := 0
			self0, _ := cputime.Self()
			children0, _ := cputime.Children()
			for i := 0; i < b.N; i++ {
				if bc.starts {
					cs = fl.run(b, starts)
				} else {
					cs = crashRun(b, bc.flags, bc.jobs, starts)
				}
			}
			b.StopTimer()
			self1, _ := cputime.Self()
			children1, _ := cputime.Children()
			n := float64(b.N)
			b.ReportMetric(float64(cs), "cases/run")
			b.ReportMetric(float64(countStarts(starts)+b.N*fl.extra)/n, "starts/run")
			b.ReportMetric(float64((self1-self0).Milliseconds())/n, "self-cpu-ms/run")
			b.ReportMetric(float64((children1-children0).Milliseconds())/n, "adapter-cpu-ms/run")
		})
	}
	for _, jobs := range []string{"2", "1"} {
		name := "side-by-side"
		if jobs == "1" {
			name += "/jobs=1"
		}
		b.Run(name, func(b *testing.B) {
			fl := measureFloor(b, jobs)
			b.ResetTimer()
			var healthy, dies, floored time.Duration
			for i := 0; i < b.N; i++ {
				for k := 0; k < 3; k++ {
					starts := filepath.Join(b.TempDir(), "starts")
					t0 := time.Now()
					switch (i + k) % 3 {
					case 0:
						crashRun(b, "-strict", jobs, starts)
						healthy += time.Since(t0)
					case 1:
						crashRun(b, "-strict -die-rate 100", jobs, starts)
						dies += time.Since(t0)
					case 2:
						fl.run(b, starts)
						floored += time.Since(t0)
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(dies.Seconds()/healthy.Seconds(), "dies/healthy")
			b.ReportMetric(floored.Seconds()/healthy.Seconds(), "floor/healthy")
			b.ReportMetric((dies-floored).Seconds()/healthy.Seconds(), "share/healthy")
		})
	}
}

// floor is the healthy run with the adapter started beside it, extra times, one start every
// every, each start given one of inputs in turn (startInputs).
type floor struct {
	jobs   string
	extra  int
	every  time.Duration
	path   string
	inputs []string
}

// measureFloor times the healthy run and counts the starts of the dying one (untimed work for
// the caller to reset the timer after), and returns the floor they make.
func measureFloor(b *testing.B, jobs string) floor {
	t0 := time.Now()
	crashRun(b, "-strict", jobs, filepath.Join(b.TempDir(), "starts"))
	took := time.Since(t0)
	log := filepath.Join(b.TempDir(), "starts")
	crashRun(b, "-strict -die-rate 100", jobs, log)
	extra := countStarts(log) - 1
	if extra < 20 {
		// 1% of 9,075 cases kill the adapter: about 75 calls, two starts each.
		b.Fatalf("the dying run started the adapter %d times after its first; -die-rate does not kill it", extra)
	}
	return floor{jobs: jobs, extra: extra, every: took / time.Duration(max(extra, 1)), path: adapter(b),
		inputs: startInputs(b)}
}

// run runs the healthy run while the starts happen beside it and returns its number of cases;
// the run's own start is logged to the file starts.
func (f floor) run(b *testing.B, starts string) int {
	var beside sync.WaitGroup
	t0 := time.Now()
	for k := 0; k < f.extra; k++ {
		beside.Add(1)
		go func() {
			defer beside.Done()
			time.Sleep(time.Until(t0.Add(time.Duration(k) * f.every)))
			if err := startOnce(f.path, f.inputs[k%len(f.inputs)]); err != nil {
				b.Error(err)
			}
		}()
	}
	cs := crashRun(b, "-strict", f.jobs, starts)
	beside.Wait()
	return cs
}

// crashRun runs the corpus once against the test adapter with flags and returns the number of
// cases; the adapter logs each of its starts to the file starts.
func crashRun(b *testing.B, flags, jobs, starts string) int {
	spec := "exec:'" + adapter(b) + "' " + flags + " -log-starts '" + starts + "'"
	var out, errOut strings.Builder
	code := run([]string{"run", "--validator", spec, "--checks", "20", "--seed", "1", "--jobs", jobs, "--format",
		"json"}, &out, &errOut)
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
	return doc.Reports[0].Cases
}

// countStarts is the number of starts the adapter logged to the file.
func countStarts(file string) int {
	log, _ := os.ReadFile(file)
	return bytes.Count(log, []byte("\n"))
}

// startInputs are what startOnce says to the adapter, one per corpus tool: hello, the tool and
// one call of it (a restarted process registers the tool its calls need).
func startInputs(b *testing.B) []string {
	var inputs []string
	for _, t := range sample.Tools().Tools {
		toolMsg, err := json.Marshal(map[string]any{"op": "tool", "tool": t})
		if err != nil {
			b.Fatal(err)
		}
		call, _ := json.Marshal(map[string]any{"op": "validate", "id": 1, "tool": t.Name, "arguments": "{}"})
		inputs = append(inputs, `{"op":"hello"}`+"\n"+string(toolMsg)+"\n"+string(call)+"\n")
	}
	return inputs
}

// startOnce starts the test adapter, gives it input (one of startInputs) and waits for its three
// answers and its end: the work of one restart.
func startOnce(path, input string) error {
	cmd := exec.Command(path, "-strict")
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("a start of the adapter beside the run: %v", err)
	}
	if n := bytes.Count(out, []byte("\n")); n != 3 {
		return fmt.Errorf("a start of the adapter beside the run answered %d lines, want 3:\n%s", n, out)
	}
	return nil
}

// TestValidatorThatCannotRestartIsNoPass: an adapter that dies on every call holding "~" and
// then cannot start again (each start after the first exits at once) leaves the crashes
// unjudged: the run is interrupted, with the reason, never passed.
func TestValidatorThatCannotRestartIsNoPass(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "once.sh")
	body := "#!/bin/sh\nif [ -e '" + filepath.Join(dir, "started") + "' ]; then exit 1; fi\n" +
		": > '" + filepath.Join(dir, "started") + "'\nexec '" + adapter(t) + "' -strict -die-on '~'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	// In a comparison, the validator checked after the one that stopped is still checked.
	r := cli(t, "run", "--validator", "exec:sh '"+script+"'", "--validator", "reference", "--checks", "5",
		"--seed", "1", "--format", "json")
	if r.code != exitInterrupted {
		t.Fatalf("exit %d, want %d (interrupted)\n%s\n%s", r.code, exitInterrupted, r.stdout, r.stderr)
	}
	var doc struct {
		Passed  bool
		Reports []struct{ Interrupted string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Reports) != 2 {
		t.Fatalf("want a report for each of the 2 validators: %v\n%s", err, r.stdout)
	}
	if doc.Passed || !strings.Contains(doc.Reports[0].Interrupted, "do not count") {
		t.Errorf("passed %v, interrupted %q: want not passed, interrupted with the reason", doc.Passed,
			doc.Reports[0].Interrupted)
	}
	if doc.Reports[1].Interrupted != "" {
		t.Errorf("the reference, checked after, is interrupted too: %q", doc.Reports[1].Interrupted)
	}
}
