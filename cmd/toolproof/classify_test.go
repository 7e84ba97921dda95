package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trafficLog is a small log of calls of the corpus tool read, in several forms, with one line
// that holds no call.
const trafficLog = `{"tool":"read","arguments":"{\"path\":\"/a\",\"limit\":\"20\"}"}
{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"/a","limit":20}}
not a call
{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\":\"/b\",\"offset\":\" 3\"}"}}]}
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"/c","verbose":true}}}
{"tool":"grep","arguments":{"pattern":"x"}}
`

// TestClassifySaveThenReplay: the invalid calls of a log, saved by classify, make a gate that
// coerces numeric strings fail replay, and the reference pass it.
func TestClassifySaveThenReplay(t *testing.T) {
	dir := t.TempDir()
	logPath := writeFile(t, dir, "calls.jsonl", trafficLog)
	saved := filepath.Join(dir, "saved")
	weights := filepath.Join(dir, "weights.json")
	r := must(t, 0, "classify", "--tools", corpusTool("read"), "--calls", logPath, "--format", "jsonl",
		"--save", saved, "--save-valid", "--weights", weights)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var got []string
	for _, l := range lines {
		var row struct {
			Line    int    `json:"line"`
			Tool    string `json:"tool"`
			Verdict string `json:"verdict"`
			Classes []struct {
				Class, Variant, Path string
			} `json:"classes"`
		}
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatalf("jsonl line %q: %v", l, err)
		}
		s := row.Verdict
		for _, c := range row.Classes {
			s += " " + c.Class + "/" + c.Variant + "@" + c.Path
		}
		got = append(got, s)
	}
	want := []string{"invalid stringified_type/exact@/limit", "valid", "invalid stringified_type/padded@/offset",
		"invalid hallucinated_key/invented@/verbose", "unknown_tool"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("jsonl verdicts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(r.stderr, "line 3: not JSON") || !strings.Contains(r.stderr, "saved 4 calls") {
		t.Errorf("stderr does not report the unreadable line 3 and the 4 saved calls:\n%s", r.stderr)
	}
	data, err := os.ReadFile(weights)
	if err != nil || !strings.Contains(string(data), `"stringified_type": 2`) {
		t.Errorf("weights file: %v\n%s", err, data)
	}

	// The coercing gate accepts "20" and " 3": replay fails on them ...
	rep := decodeReport(t,
		must(t, 1, "replay", saved, "--tools", corpusTool("read"), "--validator", execSpec(t),
			"--format", "json").stdout)
	missed := 0
	for _, f := range rep.Findings {
		if f.Kind != "missed" || f.Class != "stringified_type" {
			t.Errorf("unexpected finding %s/%s: %s", f.Class, f.Kind, f.Args)
		}
		missed++
	}
	if missed != 2 {
		t.Errorf("%d missed stringified_type calls, want 2: %+v", missed, rep.Findings)
	}
	// ... and the reference passes every saved call, the valid one included.
	must(t, 0, "replay", saved, "--tools", corpusTool("read"))
}

func TestClassifyTextAndBadUsage(t *testing.T) {
	dir := t.TempDir()
	logPath := writeFile(t, dir, "calls.jsonl", trafficLog)
	text := must(t, 0, "classify", "--calls", logPath).stdout // the embedded corpus defines read and grep
	for _, want := range []string{"5 calls of 2 tools: 2 valid, 3 invalid", "stringified_type",
		"e.g. stringified_type/exact at /limit (line 1, read)"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
	for _, args := range [][]string{
		{"classify"},
		{"classify", "--calls", logPath, "--format", "html"},
		{"classify", "--calls", filepath.Join(dir, "missing.jsonl")},
		{"classify", "--calls", logPath, "--save-valid"},
	} {
		if r := cli(t, args...); r.code != 2 || !strings.Contains(r.stderr, "toolproof:") {
			t.Errorf("%v: exit %d, want 2 with a message\n%s", args, r.code, r.stderr)
		}
	}
}

// TestRunWithWeightsFromClassify: the weights classify writes draw run's classes; the report says
// them, and the same seed gives the same report.
func TestRunWithWeightsFromClassify(t *testing.T) {
	dir := t.TempDir()
	logPath := writeFile(t, dir, "calls.jsonl", trafficLog)
	weights := filepath.Join(dir, "weights.json")
	must(t, 0, "classify", "--tools", corpusTool("read"), "--calls", logPath, "--weights", weights)
	args := []string{"run", "--tools", corpusTool("read"), "--checks", "20", "--seed", "3", "--weights",
		weights, "--format", "json"}
	first := must(t, 0, args...).stdout
	if second := must(t, 0, args...).stdout; first != second {
		t.Error("the same seed and weights gave two reports")
	}
	if !strings.Contains(first, "classes drawn by the given weights") ||
		!strings.Contains(first, "stringified_type 52.4%") {
		t.Errorf("the report does not state the weights:\n%s", clip(first))
	}
	bad := writeFile(t, dir, "bad.json", `{"classes":{"no_such_class":1}}`)
	if r := cli(t, "run", "--tools", corpusTool("read"), "--weights", bad); r.code != 2 ||
		!strings.Contains(r.stderr, "no_such_class") {
		t.Errorf("a weights file with an unknown class: exit %d\n%s", r.code, r.stderr)
	}
}
