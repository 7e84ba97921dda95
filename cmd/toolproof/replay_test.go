package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/corpus"
)

func TestExecAdapterFindingsSaveReplay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "saved")
	tools := []string{"--tools", corpusTool("read"), "--tools", corpusTool("grep")}
	spec := execSpec(t)
	base := append([]string{"run", "--validator", spec, "--checks", "20", "--seed", "1"}, tools...)

	text := must(t, 1, base...).stdout
	if !strings.HasPrefix(text, "FAIL  validator coerce 0") {
		t.Errorf("first line: %q", strings.SplitN(text, "\n", 2)[0])
	}
	if !regexp.MustCompile(`(?m)^FAIL (read|grep): stringified_type missed: the number at /\S+ written as the ` +
		`string`).MatchString(text) {
		t.Errorf("no stringified_type finding in the text report:\n%s", text)
	}

	rep := decodeReport(t, must(t, 1, append(base, "--format", "json", "--save", dir)...).stdout)
	if rep.Passed {
		t.Error("passed is true with findings")
	}
	saved := map[string]bool{}
	stringified := 0
	for _, f := range rep.Findings {
		// Reading numeric strings as numbers can only make the adapter accept too much.
		if f.Kind != "missed" {
			t.Errorf("unexpected finding %s/%s/%s: %s", f.Tool, f.Class, f.Kind, f.Args)
		}
		if f.Class == "stringified_type" {
			stringified++
		}
		if f.Blocking {
			saved[f.ID] = true
		}
	}
	if stringified == 0 {
		t.Fatalf("no stringified_type finding: %+v", rep.Findings)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("--save wrote nothing: %v", err)
	}
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	var want []string
	for id := range saved {
		want = append(want, id+".json")
	}
	sort.Strings(files)
	sort.Strings(want)
	if d := cmp.Diff(want, files); d != "" {
		t.Errorf("--save: one file per finding, named by its id (-want +got):\n%s", d)
	}

	// Replay with the same validator: the same findings, and nothing new is drawn.
	replayed := decodeReport(t,
		must(t, 1, append([]string{"replay", dir, "--validator", spec, "--format", "json"}, tools...)...).stdout)
	got := map[string]bool{}
	for _, f := range replayed.Findings {
		got[f.ID] = true
		if f.Kind != "missed" {
			t.Errorf("replay: unexpected finding %s/%s/%s", f.Tool, f.Class, f.Kind)
		}
	}
	if d := cmp.Diff(saved, got); d != "" {
		t.Errorf("replay found other cases than were saved (-saved +replayed):\n%s", d)
	}
	if replayed.Cases != len(saved) {
		t.Errorf("replay judged %d cases, want the %d saved", replayed.Cases, len(saved))
	}
	// The reference rejects every saved case.
	r := must(t, 0, append([]string{"replay", dir}, tools...)...)
	if !strings.HasPrefix(r.stdout, "PASS  validator reference") {
		t.Errorf("replay with the reference:\n%s", r.stdout)
	}
	// ... and the embedded corpus defines the same tools.
	must(t, 0, "replay", dir)

	// JUnit: the finding is a failure of the stringified_type suite.
	junit := must(t, 1, append(base, "--format", "junit")...).stdout
	checkWellFormedXML(t, junit)
	suite := regexp.MustCompile(`<testsuite name="toolproof/stringified_type" tests="\d+" failures="[1-9]\d*"`)
	if !suite.MatchString(junit) {
		t.Errorf("junit: no failure in the stringified_type suite:\n%s", clip(junit))
	}
}

// A replay that replays nothing (no tool given defines the tools the saved cases name) must not
// pass: a mistyped --tools in CI would hide every saved regression.
func TestReplayOfNoCaseIsAnError(t *testing.T) {
	dir := t.TempDir()
	c := corpus.Case{Tool: "read", Args: []byte(`{"path":"a","limit":"20"}`), Expect: "reject",
		Class: "stringified_type",
		Path:  "/limit", Keyword: "type", Original: []byte(`{"path":"a","limit":20}`)}.Seal()
	if _, err := corpus.Save(dir, c); err != nil {
		t.Fatal(err)
	}
	must(t, 0, "replay", dir) // the embedded corpus defines read
	r := cli(t, "replay", dir, "--tools", corpusTool("grep"))
	if r.code != 2 || !strings.Contains(r.stderr, "read") {
		t.Errorf("replay of cases for read with only grep given: exit %d, want 2 with a message naming "+
			"read\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}
