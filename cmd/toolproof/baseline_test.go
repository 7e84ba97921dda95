package main

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/harness/baseline"
	"github.com/toolproof/toolproof/harness/report"
)

// baselineOf runs the coercing test adapter on a few tools and returns the tool flags, the
// trimmed baseline's path and the findings it lists.
func baselineOf(t *testing.T, dir string) ([]string, string, []report.Finding) {
	t.Helper()
	tools := []string{"--tools", corpusTool("read"), "--tools", corpusTool("bash"), "--tools",
		corpusTool("search_products"),
		"--checks", "10"}
	args := append([]string{"run", "--validator", execSpec(t), "--seed", "1", "--format", "json"}, tools...)
	r := must(t, 1, args...)
	report := writeFile(t, dir, "report.json", r.stdout)
	trimmed := must(t, 0, "baseline", report)
	path := writeFile(t, dir, "baseline.json", trimmed.stdout)
	d := decodeDocument(t, trimmed.stdout)
	if len(d.Reports) != 1 || len(d.Reports[0].Findings) == 0 {
		t.Fatalf("the baseline of a run with findings lists none:\n%s", clip(trimmed.stdout))
	}
	for _, f := range d.Reports[0].Findings {
		if !f.Blocking || f.Known || len(f.Args) == 0 || f.ID == "" {
			t.Errorf("baseline entry %s: want a blocking finding with its case, got %+v", f.ID, f)
		}
	}
	return tools, path, d.Reports[0].Findings
}

func keysOf(fs []report.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, strings.ReplaceAll(baseline.Key(f), "\x00", " ")+" "+f.ID)
	}
	sort.Strings(out)
	return out
}

// A gate whose findings are all in the baseline passes, whatever the seed: each known finding is
// replayed and reproduces, and the run's findings of the same tool, class and kind are known.
func TestBaselineKnownPasses(t *testing.T) {
	dir := t.TempDir()
	tools, base, entries := baselineOf(t, dir)
	for _, seed := range []string{"1", "99"} {
		args := append([]string{"run", "--validator", execSpec(t), "--seed", seed, "--format", "json",
			"--baseline", base}, tools...)
		r := must(t, 0, args...)
		rep := decodeDocument(t, r.stdout).Reports[0]
		if rep.Baseline == nil {
			t.Fatalf("seed %s: no baseline in the report", seed)
		}
		if diff := cmp.Diff(keysOf(entries), keysOf(rep.Baseline.Known)); diff != "" {
			t.Errorf("seed %s: known entries (-baseline +known):\n%s", seed, diff)
		}
		if len(rep.Baseline.Fixed) != 0 {
			t.Errorf("seed %s: fixed %v, want none", seed, keysOf(rep.Baseline.Fixed))
		}
		for _, f := range rep.Findings {
			if f.Blocking && !f.Known {
				t.Errorf("seed %s: finding %s not known, though the baseline lists its tool, class and kind",
					seed, f.String())
			}
		}
	}
	text := must(t, 0, append([]string{"run", "--validator", execSpec(t), "--seed", "1", "--baseline", base},
		tools...)...).stdout
	if !strings.HasPrefix(text, "PASS") || !strings.Contains(text, "known (still reproduce") {
		t.Errorf("the text report does not say the known findings pass:\n%s", clip(text))
	}
}

// A finding the baseline does not list fails the run, as without a baseline.
func TestBaselineNewFindingFails(t *testing.T) {
	dir := t.TempDir()
	tools, base, entries := baselineOf(t, dir)
	d := decodeDocument(t, must(t, 0, "baseline", base).stdout)
	dropped := d.Reports[0].Findings[0]
	d.Reports[0].Findings = d.Reports[0].Findings[1:]
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	smaller := writeFile(t, dir, "smaller.json", string(data))
	r := must(t, 1, append([]string{"run", "--validator", execSpec(t), "--seed", "1", "--format", "json", "--baseline",
		smaller}, tools...)...)
	rep := decodeDocument(t, r.stdout).Reports[0]
	if rep.Passed || len(rep.Baseline.Known) != len(entries)-1 || len(rep.Baseline.Fixed) != 0 {
		t.Fatalf("passed %v, %d known, %d fixed; want a failed run, %d known, 0 fixed", rep.Passed,
			len(rep.Baseline.Known), len(rep.Baseline.Fixed), len(entries)-1)
	}
	failing := 0
	for _, f := range rep.Findings {
		if f.Fails() {
			failing++
			if baseline.Key(f) != baseline.Key(dropped) {
				t.Errorf("finding %s fails, though the baseline lists it", f.String())
			}
		}
	}
	if failing != 1 {
		t.Errorf("%d findings fail the run, want 1 (%s)", failing, dropped.String())
	}
}

// A known finding that no longer reproduces is fixed and fails the run, whatever the seed, so
// that the baseline is trimmed.
func TestBaselineFixedFails(t *testing.T) {
	dir := t.TempDir()
	tools, base, entries := baselineOf(t, dir)
	var first report.Document
	for i, seed := range []string{"1", "5"} {
		args := append([]string{"run", "--validator", execSpec(t, "-strict"), "--seed", seed, "--format", "json",
			"--baseline", base}, tools...)
		r := must(t, 1, args...)
		d := decodeDocument(t, r.stdout)
		rep := d.Reports[0]
		if rep.Passed || len(rep.Findings) != 0 {
			t.Fatalf("seed %s: the corrected gate: passed %v with %d findings; want a failed run without findings",
				seed, rep.Passed, len(rep.Findings))
		}
		if diff := cmp.Diff(keysOf(entries), keysOf(rep.Baseline.Fixed)); diff != "" {
			t.Errorf("seed %s: fixed entries (-baseline +fixed):\n%s", seed, diff)
		}
		if i == 0 {
			first = d
		} else if diff := cmp.Diff(first.Reports[0].Baseline, rep.Baseline); diff != "" {
			t.Errorf("the baseline's verdicts depend on the seed (-seed 1 +seed 5):\n%s", diff)
		}
	}
	text := cli(t, append([]string{"run", "--validator", execSpec(t, "-strict"), "--seed", "1", "--baseline", base},
		tools...)...).stdout
	if !strings.Contains(text, "FIXED ") || !strings.Contains(text, "remove it from the baseline") {
		t.Errorf("the text report does not name the fixed entries:\n%s", clip(text))
	}
}

// A baseline that is not a JSON report is bad input, named.
func TestBaselineBadFile(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.json", "[1,2]")
	r := must(t, 2, "run", "--tools", corpusTool("read"), "--checks", "5", "--baseline", bad)
	if !strings.Contains(r.stderr, "baseline "+bad) {
		t.Errorf("stderr %q does not name the baseline file", r.stderr)
	}
	must(t, 2, "baseline", filepath.Join(dir, "missing.json"))
}

// The shards of a run with a baseline merge into what the unsharded run reports.
func TestBaselineShardsMerge(t *testing.T) {
	dir := t.TempDir()
	tools, base, _ := baselineOf(t, dir)
	whole := must(t, 0, append([]string{"run", "--validator", execSpec(t), "--seed", "3", "--format", "json",
		"--baseline", base}, tools...)...).stdout
	files := shardFiles(t, dir, 2,
		append([]string{"run", "--validator", execSpec(t), "--seed", "3", "--baseline", base}, tools...)...)
	merged := must(t, 0, append([]string{"merge", "--format", "json"}, files...)...).stdout
	if diff := cmp.Diff(whole, merged); diff != "" {
		t.Errorf("merged shards differ from the whole run (-whole +merged):\n%s", diff)
	}
}
