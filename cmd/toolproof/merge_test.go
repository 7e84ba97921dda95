package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/harness/report"
)

func init() {
	// The tests choose their shards; a CI system running them in parallel jobs must not.
	for _, v := range append([]string{"TOOLPROOF_SHARD"}, shardVarNames()...) {
		os.Unsetenv(v)
	}
}

func shardVarNames() []string {
	var out []string
	for _, sv := range shardVars {
		out = append(out, sv.index)
		if sv.total != "" {
			out = append(out, sv.total)
		}
	}
	return out
}

func decodeDocument(t *testing.T, s string) report.Document {
	t.Helper()
	var d report.Document
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatalf("the JSON report does not parse: %v\n%s", err, clip(s))
	}
	return d
}

// shardFiles runs base as n shards and writes their JSON reports into dir.
func shardFiles(t *testing.T, dir string, n int, base ...string) []string {
	t.Helper()
	var files []string
	for i := 0; i < n; i++ {
		s := strings.Join([]string{strconv.Itoa(i), strconv.Itoa(n)}, "/")
		r := cli(t, append(base, "--shard", s, "--format", "json")...)
		if r.code != 0 && r.code != 1 {
			t.Fatalf("shard %s: exit %d\n%s", s, r.code, r.stderr)
		}
		if want := "toolproof: shard " + s + " (--shard " + s + "): "; !strings.Contains(r.stderr, want) {
			t.Errorf("shard %s: stderr %q lacks %q", s, r.stderr, want)
		}
		files = append(files, writeFile(t, dir, "shard-"+strconv.Itoa(i)+".json", r.stdout))
	}
	return files
}

// The shards of a run, merged, are the unsharded run with the same seed, byte for byte in every
// format, though each shard shrank findings of its own that the whole run leaves unshrunk.
func TestMergeEqualsTheUnshardedRun(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--validator", execSpec(t), "--checks", "5", "--seed", "1"}
	files := shardFiles(t, dir, 3, base...)

	shrunkInShards := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		d := decodeDocument(t, string(data))
		if sh := d.Reports[0].Shard; sh == nil || sh.Of != 3 {
			t.Fatalf("%s: no shard info in the report of a shard", f)
		}
		for _, fd := range d.Reports[0].Findings {
			if fd.Shrunk {
				shrunkInShards++
			}
		}
	}
	want := map[string]string{}
	formats := []string{"json", "text", "junit", "markdown"}
	for _, format := range formats {
		// JUnit's time is the run's wall time, which merge does not have: compared without it.
		want[format] = junitTime.ReplaceAllString(must(t, 1, append(base, "--format", format)...).stdout, "")
	}
	whole := decodeDocument(t, want["json"])
	shrunk := 0
	for _, fd := range whole.Reports[0].Findings {
		if fd.Shrunk {
			shrunk++
		}
	}
	if shrunkInShards <= shrunk {
		t.Fatalf("the shards shrank %d findings, the whole run %d: this seed does not test that merge undoes the "+
			"shards' own shrinks", shrunkInShards, shrunk)
	}
	for _, format := range formats {
		got := must(t, 1, append([]string{"merge", "--format", format}, files...)...).stdout
		if got != want[format] {
			t.Errorf("--format %s: the merged shards differ from the unsharded run (-want +got):\n%s", format,
				cmp.Diff(want[format], got))
		}
	}
}

// A comparison (several validators) merges report by report.
func TestMergeComparison(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--tools", corpusTool("read"), "--tools", corpusTool("grep"), "--tools", corpusTool("bash"),
		"--validator", "reference", "--validator", execSpec(t), "--checks", "5", "--seed", "4"}
	files := shardFiles(t, dir, 2, base...)
	for _, format := range []string{"json", "text"} {
		want := must(t, 1, append(base, "--format", format)...).stdout
		got := must(t, 1, "merge", "--format", format, files[1], files[0]).stdout
		if got != want {
			t.Errorf("--format %s: the merged shards differ from the unsharded comparison (-want +got):\n%s",
				format, cmp.Diff(want, got))
		}
	}
}

// Tools skipped before the run (a broken file) and by it (unusable schemas) come back in the
// unsharded order, the former once.
func TestMergeKeepsTheSkippedOrder(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools")
	os.Mkdir(tools, 0o755)
	for _, n := range []string{"read", "grep"} {
		data, err := os.ReadFile(corpusTool(n))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, tools, map[string]string{"read": "a_read.json", "grep": "e_grep.json"}[n], string(data))
	}
	writeFile(t, tools, "b_broken.json", "{\"name\": \"x\",\n \"parameters\": {]}\n")
	writeFile(t, tools, "c_ref.json",
		`{"name":"badref","parameters":{"type":"object","properties":{"a":{"$ref":"#/nope"}}}}`)
	writeFile(t, tools, "d_never.json",
		`{"name":"never","parameters":{"type":"object","properties":{"a":{"type":"string","pattern":"^(?P<x>a)"}}}}`)
	base := []string{"run", "--tools", tools, "--validator", execSpec(t), "--checks", "3", "--seed", "1"}
	files := shardFiles(t, dir, 2, base...)
	want := must(t, 1, append(base, "--format", "json")...).stdout
	got := must(t, 1, append([]string{"merge", "--format", "json"}, files...)...).stdout
	if got != want {
		t.Errorf("the merged shards differ from the unsharded run (-want +got):\n%s", cmp.Diff(want, got))
	}
	if d := decodeDocument(t, got); len(d.Reports[0].Skipped) != 3 {
		t.Errorf("merged: %d skipped, want 3 (the broken file once, badref, never)", len(d.Reports[0].Skipped))
	}
}

// What cannot be merged is refused, exit 2, with the file and the reason.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--tools", corpusTool("read"), "--validator", execSpec(t), "--checks", "3"}
	s1 := shardFiles(t, mkdir(t, dir, "seed1"), 2, append(base, "--seed", "1")...)
	s2 := shardFiles(t, mkdir(t, dir, "seed2"), 2, append(base, "--seed", "2")...)
	other := shardFiles(t, mkdir(t, dir, "grep"), 2, "run", "--tools", corpusTool("grep"), "--validator", execSpec(t),
		"--checks", "3", "--seed", "1")
	whole := writeFile(t, dir, "whole.json", must(t, 1, append(base, "--seed", "1", "--format", "json")...).stdout)
	notJSON := writeFile(t, dir, "notes.txt", "{\"passed\": true,\n  oops}\n")
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{s1[0], s2[1]}, s2[1] + ": report 1 has seed 2, but " + s1[0] + " has seed 1: not shards of one run"},
		{[]string{s1[0], other[1]}, other[1] + ": report 1 has tool list 1 tools, hash "},
		{[]string{s1[0], s1[0]}, s1[0] + ": shard 0/2, given twice (" + s1[0] + " is that shard too)"},
		{[]string{s1[1]}, "shard 0/2 missing (given: 1 of 2 shards)"},
		{[]string{s1[0], whole}, whole + ": report 1 (validator coerce 0) is not the report of a shard of a run"},
		{[]string{s1[0], notJSON},
			"merge " + notJSON + ": not a JSON report of toolproof run: line 2, column 3: invalid character 'o'"},
		{[]string{filepath.Join(dir, "absent.json")}, "absent.json: no such file"},
		{nil, "merge takes the JSON reports of the shards of a run"},
	} {
		r := must(t, 2, append([]string{"merge"}, c.files...)...)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("merge %v: stderr %q, want it to say %q", c.files, r.stderr, c.want)
		}
		if r.stdout != "" {
			t.Errorf("merge %v: wrote a report:\n%s", c.files, clip(r.stdout))
		}
	}
}

func mkdir(t *testing.T, dir, name string) string {
	p := filepath.Join(dir, name)
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// With no --shard, the shard comes from the variables of CI systems and batch schedulers.
func TestShardFromEnvironment(t *testing.T) {
	base := []string{"run", "--checks", "1", "--seed", "1", "--format", "json"}
	shardOf := func(r result) string {
		d := decodeDocument(t, r.stdout)
		sh := d.Reports[0].Shard
		if sh == nil {
			return "none"
		}
		return strconv.Itoa(sh.Index) + "/" + strconv.Itoa(sh.Of)
	}

	t.Setenv("JOB_COMPLETION_INDEX", "2")
	r := must(t, 0, append(base, "--shards", "3")...)
	if got := shardOf(r); got != "2/3" {
		t.Errorf("JOB_COMPLETION_INDEX=2 --shards 3: shard %s, want 2/3", got)
	}
	if want := "toolproof: shard 2/3 (JOB_COMPLETION_INDEX=2, --shards 3): 13 of 39 tools"; corpusSize == 39 &&
		!strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q lacks %q", r.stderr, want)
	}
	if r := must(t, 2, base...); !strings.Contains(r.stderr,
		"JOB_COMPLETION_INDEX=2 is set: give the number of shards with --shards N") {
		t.Errorf("JOB_COMPLETION_INDEX without --shards: stderr %q", r.stderr)
	}
	if got := shardOf(must(t, 0, append(base, "--shard", "0/2")...)); got != "0/2" {
		t.Errorf("--shard 0/2 with JOB_COMPLETION_INDEX set: shard %s, want the flag's 0/2", got)
	}
	os.Unsetenv("JOB_COMPLETION_INDEX")

	// GitLab counts from 1.
	t.Setenv("CI_NODE_INDEX", "3")
	t.Setenv("CI_NODE_TOTAL", "3")
	if got := shardOf(must(t, 0, base...)); got != "2/3" {
		t.Errorf("CI_NODE_INDEX=3 CI_NODE_TOTAL=3: shard %s, want 2/3", got)
	}
	os.Unsetenv("CI_NODE_INDEX")

	// CircleCI sets its variables in every job; one job is no shard.
	t.Setenv("CIRCLE_NODE_INDEX", "0")
	t.Setenv("CIRCLE_NODE_TOTAL", "1")
	if r := must(t, 0, base...); shardOf(r) != "none" || strings.Contains(r.stderr, "shard") {
		t.Errorf("CIRCLE_NODE_TOTAL=1: shard %s, stderr %q; want no shard", shardOf(r), r.stderr)
	}
	os.Unsetenv("CIRCLE_NODE_INDEX")

	if r := must(t, 2, append(base, "--shards", "4")...); !strings.Contains(r.stderr,
		"--shards 4: no shard index; give --shard i/4") {
		t.Errorf("--shards with no index: stderr %q", r.stderr)
	}
}

// pickShard reads each system's variables its own way.
func TestPickShard(t *testing.T) {
	for _, c := range []struct {
		shard  string
		shards int
		env    map[string]string
		want   string // i/n, "none", or the start of the error
	}{
		{"", 0, nil, "none"},
		{"1/4", 0, map[string]string{"JOB_COMPLETION_INDEX": "3"}, "1/4"},
		{"1/4", 3, nil, "--shard 1/4 and --shards 3 disagree"},
		{"", 0, map[string]string{"TOOLPROOF_SHARD": "2/5"}, "2/5"},
		{"", 0, map[string]string{"TOOLPROOF_SHARD": "5/5"}, "TOOLPROOF_SHARD=\"5/5\": want i/n"},
		{"", 4, map[string]string{"JOB_COMPLETION_INDEX": "3"}, "3/4"},
		{"", 4, map[string]string{"JOB_COMPLETION_INDEX": "4"},
			"shard index 4 (from JOB_COMPLETION_INDEX=4, --shards 4) is not below the count 4"},
		{"", 0, map[string]string{"CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2"}, "1/2"},
		{"", 0, map[string]string{"BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "6"}, "0/6"},
		{"", 0, map[string]string{"BUILDKITE_PARALLEL_JOB": "0"},
			"BUILDKITE_PARALLEL_JOB=0 is set, but BUILDKITE_PARALLEL_JOB_COUNT=\"\" is not a count"},
		{"", 0, map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"}, "0/4"},
		{"", 0, map[string]string{"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "4"},
			"CI_NODE_INDEX=\"0\": not a shard index"},
	} {
		i, n, _, err := pickShard(c.shard, c.shards, func(k string) string { return c.env[k] })
		got := "none"
		switch {
		case err != nil:
			got = err.Error()
		case n > 0:
			got = strconv.Itoa(i) + "/" + strconv.Itoa(n)
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("--shard %q --shards %d %v: got %q, want %q", c.shard, c.shards, c.env, got, c.want)
		}
	}
}

// junitTime matches the time attribute run gives JUnit's testsuites element.
var junitTime = regexp.MustCompile(` time="[0-9.]+"`)
