package classify_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/classify"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// readForms reads testdata/forms.jsonl: a call in every form teams log, and lines that hold none.
func readForms(t *testing.T) ([]classify.Call, []classify.LineError) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "forms.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	calls, bad, err := classify.ReadCalls(f)
	if err != nil {
		t.Fatal(err)
	}
	return calls, bad
}

func TestReadCallsInEveryForm(t *testing.T) {
	calls, bad := readForms(t)
	type row struct {
		Line       int
		Form, Tool string
		ID, Args   string
	}
	var got []row
	for _, c := range calls {
		got = append(got, row{c.Line, c.Form, c.Tool, c.ID, string(c.Args)})
	}
	want := []row{
		{1, "plain", "read", "", `{"path":"/a","limit":"20"}`},
		{2, "plain", "read", "", `{"path": "/a", "limit": 20}`}, // an object's text as logged
		{4, "openai-chat", "read", "call_1", `{"path":"/a","offset":null}`},
		{4, "openai-chat", "grep", "call_2", `{"pattern":"x"}`},
		{5, "openai-chat", "read", "call_3", `{"path":"/a","verbose":true}`},
		{6, "openai-responses", "read", "call_4", `{"path":"/a","limit":2001}`},
		{7, "openai-responses", "read", "call_5", `{'path': '/a'}`},
		{8, "anthropic", "read", "toolu_1", `{"path": "/a", "limit": [20]}`},
		{9, "anthropic", "read", "toolu_2", `{"arguments": {"path": "/a"}}`},
		{10, "mcp", "read", "7", `{"path": "/a", "offset": 1e400}`},
		{13, "plain", "deploy_rocket", "", `{}`},
		{14, "plain", "read", "", `{"path":"/a","limit":"20","verbose":true}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	var lines []int
	for _, e := range bad {
		lines = append(lines, e.Line)
	}
	if diff := cmp.Diff([]int{11, 12}, lines); diff != "" || !strings.Contains(bad[0].Err, "tools/list") ||
		!strings.Contains(bad[1].Err, "not JSON") {
		t.Errorf("unreadable lines (-want +got):\n%s\n%v", diff, bad)
	}
}

// classified is a call's verdict and its distortions, written "class/variant@path".
func classified(c mutators.Recognition) []string {
	out := []string{string(c.Reading)}
	for _, d := range c.Distortions {
		out = append(out, string(d.Class)+"/"+d.Variant+"@"+d.Path)
	}
	return out
}

func TestClassifyTheForms(t *testing.T) {
	calls, _ := readForms(t)
	cl, skipped := classify.New(sample.Tools().Tools)
	if len(skipped) > 0 {
		t.Fatalf("corpus tools skipped: %v", skipped)
	}
	var got [][]string
	for _, r := range cl.All(calls) {
		got = append(got, classified(r.Recognition))
	}
	want := [][]string{
		{"invalid", "stringified_type/exact@/limit"},
		{"valid"},
		{"invalid", "null_value/null@/offset"},
		{"valid"},
		{"invalid", "hallucinated_key/invented@/verbose"},
		{"invalid", "out_of_range_enum/above-maximum@/limit"},
		{"invalid", "malformed_json/single-quotes@"},
		{"invalid", "wrapped_scalar/wrapped@/limit"},
		{"invalid", "wrapper_nesting/arguments@"},
		{"either", "implementation_defined/huge-number@"},
		{"unknown_tool"},
		// Several distortions in one call: each is named.
		{"invalid", "stringified_type/exact@/limit", "hallucinated_key/invented@/verbose"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("classifications (-want +got):\n%s", diff)
	}
}

func TestSummaryCountsClassesAndTools(t *testing.T) {
	calls, bad := readForms(t)
	cl, _ := classify.New(sample.Tools().Tools)
	s := classify.Summarise(cl.All(calls), bad)
	if s.Calls != 12 || s.Verdicts[mutators.Invalid] != 8 || s.Verdicts[mutators.Valid] != 2 ||
		s.Verdicts[mutators.Either] != 1 || s.UnknownTools["deploy_rocket"] != 1 || len(s.Unreadable) != 2 {
		t.Errorf("summary: %d calls, verdicts %v, unknown %v, unreadable %v", s.Calls, s.Verdicts,
			s.UnknownTools, s.Unreadable)
	}
	// Most frequent first, ties by name.
	if len(s.Classes) < 2 || s.Classes[0].Class != mutators.HallucinatedKey ||
		s.Classes[1].Class != mutators.StringifiedType || s.Classes[1].Distortions != 2 {
		t.Errorf("the most frequent classes: %+v, want hallucinated_key and stringified_type with 2", s.Classes)
	}
	w := classify.WeightsOf(s, "forms.jsonl")
	if w.Classes[mutators.HallucinatedKey] != 2 || w.Variants["stringified_type/exact"] != 2 {
		t.Errorf("weights: %+v", w)
	}
	var text strings.Builder
	if err := classify.WriteText(&text, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"12 calls of 2 tools: 2 valid, 8 invalid, 0 unexplained, 1 either, 1 unknown_tool",
		"unreadable: line 11:", "unknown tools: deploy_rocket (1)",
		"e.g. stringified_type/exact at /limit (line 1, read)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if !regexp.MustCompile(`(?m)^stringified_type +2 +2 +exact 2$`).MatchString(text.String()) {
		t.Errorf("text report: no row for stringified_type:\n%s", text.String())
	}
}

func TestSaveWritesReplayableCases(t *testing.T) {
	calls, _ := readForms(t)
	cl, _ := classify.New(sample.Tools().Tools)
	dir := t.TempDir()
	n, err := cl.Save(dir, cl.All(calls), "forms.jsonl", true)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// 8 invalid and 2 valid calls; the either and unknown ones owe no verdict.
	if n != 10 || len(saved) != 10 {
		t.Fatalf("saved %d, loaded %d; want 10", n, len(saved))
	}
	expect := map[corpus.Expect]int{}
	for _, c := range saved {
		expect[c.Expect]++
		if c.Expect == corpus.Reject &&
			(c.Class == corpus.Valid || c.Path == "" &&
				!strings.Contains("malformed_json wrapper_nesting", string(c.Class))) {
			t.Errorf("case %s: class %s at %q", c.ID, c.Class, c.Path)
		}
		if !strings.HasPrefix(c.Provenance, "classify forms.jsonl line ") {
			t.Errorf("provenance %q", c.Provenance)
		}
	}
	if expect[corpus.Reject] != 8 || expect[corpus.Accept] != 2 {
		t.Errorf("expectations %v, want 8 reject and 2 accept", expect)
	}
}

func TestReadWeightsRejectsWhatItCannotUse(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"unknown class": `{"classes":{"stringified_type":3,"typo_class":1}}`,
		"negative":      `{"classes":{"stringified_type":-1}}`,
		"all zero":      `{"classes":{"stringified_type":0}}`,
		"not JSON":      `{"classes":`,
	} {
		p := filepath.Join(dir, "w.json")
		os.WriteFile(p, []byte(body), 0o644)
		if _, err := classify.ReadWeights(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err %v, want one naming the file", name, err)
		}
	}
}
