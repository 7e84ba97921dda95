package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

func TestRunEmbeddedCorpusText(t *testing.T) {
	args := []string{"run", "--checks", "10", "--seed", "7"}
	r := must(t, 0, args...)
	if !strings.HasPrefix(r.stdout,
		fmt.Sprintf("PASS  validator reference, profile strict, seed 7: %d tools,", corpusSize)) {
		t.Errorf("first line: got %q", strings.SplitN(r.stdout, "\n", 2)[0])
	}
	for _, c := range append([]corpus.Class{"valid"}, mutators.Classes()...) {
		if !regexp.MustCompile(`(?m)^\s*` + string(c) + `\s+\d+`).MatchString(r.stdout) {
			t.Errorf("no row for class %s in the text report:\n%s", c, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "seed 7 (toolproof run --seed 7 repeats these cases)") {
		t.Errorf("the text report does not give the seed:\n%s", r.stdout)
	}
	report, demo, ok := strings.Cut(r.stdout, "\nThe reference validator is toolproof's own oracle")
	if strings.Contains(report, "findings (") {
		t.Errorf("the reference has findings on its own corpus:\n%s", r.stdout)
	}
	// The main job shows what toolproof is for: a coercing gate's findings, then what to run next;
	// the exit status is the reference's.
	if !ok ||
		!regexp.MustCompile(`(?m)^  FAIL \w+: (stringified_type|wrong_type|null_value) missed: `).MatchString(demo) ||
		!strings.Contains(demo, "       passed on: {") ||
		!strings.Contains(demo, "What next:\n  "+invokedAs(os.Args[0])+" run --validator ajv-coerce") {
		t.Errorf("no demonstration after the reference's report:\n%s", r.stdout)
	}
	// Not when a validator is named, nor in other formats (the JSON stays one document).
	if r := must(t, 0, "run", "--checks", "5", "--seed", "7", "--validator",
		"reference"); strings.Contains(r.stdout, "What next") {
		t.Errorf("a demonstration with --validator:\n%s", r.stdout)
	}
}

// The demonstration's gate coerces at the place the reference names, as Ajv's coerceTypes does.
func TestCoercingGate(t *testing.T) {
	read, ok := sample.Tools().Lookup("read")
	if !ok {
		t.Fatal("no read tool")
	}
	g, err := coercingGate().Compile(read)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args, passed string // passed "": rejected
	}{
		{`{"path":"/a","limit":"20"}`, `{"limit":20,"path":"/a"}`},
		{`{"path":"/a","limit":" 7"}`, `{"limit":7,"path":"/a"}`},
		{`{"path":42}`, `{"path":"42"}`},
		{`{"path":null}`, ""}, // "" is too short for path: still rejected
		{`{"path":"/a","limit":"twenty"}`, ""},
		{`{"path":"/a","limit":5}`, `{"limit":5,"path":"/a"}`},
		{`{"path":"/a",}`, ""},
	} {
		v := g.Check(context.Background(), []byte(c.args))
		got := ""
		if v.Valid {
			got = string(jsonvalue.MustMarshal(v.Value))
		}
		if got != c.passed {
			t.Errorf("%s: passed on %q, want %q (issues %v)", c.args, got, c.passed, v.Issues)
		}
	}
}

func TestRunJSONShapeAndDeterminism(t *testing.T) {
	args := []string{"run", "--checks", "5", "--seed", "5", "--format", "json"}
	first := must(t, 0, args...)

	var doc struct {
		Passed  *bool                        `json:"passed"`
		Seed    uint64                       `json:"seed"`
		Reports []map[string]json.RawMessage `json:"reports"`
	}
	if err := json.Unmarshal([]byte(first.stdout), &doc); err != nil {
		t.Fatalf("--format json does not parse: %v", err)
	}
	if doc.Passed == nil || doc.Seed != 5 || len(doc.Reports) != 1 {
		t.Fatalf("the JSON document: passed %v, seed %d, %d reports; want passed, seed 5, one report", doc.Passed,
			doc.Seed, len(doc.Reports))
	}
	raw := doc.Reports[0]
	for _, k := range []string{"passed", "validator", "classes", "findings", "skipped", "seed"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("the JSON report has no %q", k)
		}
	}
	for _, k := range []string{"findings", "skipped"} {
		if v := strings.TrimSpace(string(raw[k])); !strings.HasPrefix(v, "[") {
			t.Errorf("%q is %s, want an array (an empty list is [], not null)", k, v)
		}
	}
	var classes map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw["classes"], &classes); err != nil {
		t.Fatalf("classes: %v", err)
	}
	for _, c := range append([]corpus.Class{"valid"}, mutators.Classes()...) {
		st, ok := classes[string(c)]
		if !ok {
			t.Errorf("classes has no %s", c)
			continue
		}
		for _, k := range []string{"cases", "failed", "not_applicable"} {
			var n int
			if err := json.Unmarshal(st[k], &n); err != nil {
				t.Errorf("classes.%s.%s is %s, want a number", c, k, st[k])
			}
		}
	}
	rep := decodeReport(t, first.stdout)
	if !rep.Passed || rep.Validator != "reference" || rep.Tools != corpusSize || len(rep.Findings) != 0 {
		t.Errorf("passed=%v validator=%q tools=%d findings=%d, want true, reference, %d, 0", rep.Passed, rep.Validator,
			rep.Tools, len(rep.Findings), corpusSize)
	}
	if rep.Classes["valid"].Cases != corpusSize*5 {
		t.Errorf("valid cases: %d, want one per tool and check (%d)", rep.Classes["valid"].Cases, corpusSize*5)
	}
	checkNoLostCases(t, rep)

	second := decodeReport(t, must(t, 0, args...).stdout)
	if d := cmp.Diff(rep.Classes, second.Classes); d != "" {
		t.Errorf("the same seed gave other counts (-first +second):\n%s", d)
	}
}

// --close must not make a satisfiable schema unsatisfiable: every tool of the corpus still gets
// its valid values (a tool with none would pass with 0 cases).
func TestRunCloseKeepsEveryToolSatisfiable(t *testing.T) {
	out := must(t, 0, "run", "--close", "--checks", "5", "--seed", "1", "--format", "json").stdout
	rep := decodeReport(t, out)
	if rep.Tools != corpusSize || rep.Classes["valid"].Cases != corpusSize*5 {
		var raw struct {
			Reports []struct {
				Notes []string `json:"notes"`
			} `json:"reports"`
		}
		_ = json.Unmarshal([]byte(out), &raw)
		t.Errorf("--close: %d tools, %d valid cases; want %d tools, 5 valid cases each; notes:\n%s",
			rep.Tools, rep.Classes["valid"].Cases, corpusSize, strings.Join(raw.Reports[0].Notes, "\n"))
	}
}

func TestRunJUnit(t *testing.T) {
	r := must(t, 0, "run", "--checks", "5", "--seed", "1", "--tools", corpusTool("read"), "--tools",
		corpusTool("grep"), "--format", "junit")
	checkWellFormedXML(t, r.stdout)
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("junit: %v", err)
	}
	names := map[string]bool{}
	for _, s := range doc.Suites {
		names[s.Name] = true
		if s.Failures != 0 {
			t.Errorf("suite %s: %d failures with the reference", s.Name, s.Failures)
		}
	}
	for _, c := range []string{"valid", "hallucinated_key", "malformed_json"} {
		if !names["toolproof/"+c] {
			t.Errorf("no test suite toolproof/%s in %v", c, names)
		}
	}
}

// checkWellFormedXML checks what encoding/xml does not: one root element, and an XML
// declaration only at the start.
func checkWellFormedXML(t *testing.T, s string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	depth, roots, tokens := 0, 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, clip(s))
		}
		tokens++
		switch tok := tok.(type) {
		case xml.ProcInst:
			if tok.Target == "xml" && tokens != 1 {
				t.Fatalf("not well-formed XML: an XML declaration after the start (line %d)\n%s",
					strings.Count(s[:d.InputOffset()], "\n")+1, clip(s))
			}
		case xml.StartElement:
			if depth == 0 {
				roots++
				if roots > 1 {
					t.Fatalf("not well-formed XML: a second root element <%s> (line %d)\n%s", tok.Name.Local,
						strings.Count(s[:d.InputOffset()], "\n")+1, clip(s))
				}
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Fatalf("not well-formed XML: %d root elements", roots)
	}
}

func TestRunMarkdown(t *testing.T) {
	r := must(t, 0, "run", "--checks", "5", "--seed", "1", "--tools", corpusTool("read"), "--format", "markdown")
	for _, want := range []string{"### toolproof: reference passed", "| class | cases | ok | failed | n/a |",
		"|---|---:|", "| valid | 5 | 5 | 0 | 0 |"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("markdown report lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestRunShardsPartitionTheTools(t *testing.T) {
	total := 0
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		rep := decodeReport(t,
			must(t, 0, "run", "--checks", "2", "--seed", "1", "--shard", s, "--format", "json").stdout)
		total += rep.Tools
	}
	if total != corpusSize {
		t.Errorf("shards 0/3, 1/3 and 2/3 checked %d tools in all, want %d", total, corpusSize)
	}
}

// One rule for what cannot be used inside a path given: a broken file of a directory is skipped
// with its reason, as a broken entry of a file is, and the run goes on; --max-skipped lets CI
// fail on skipped tools (exit 2, after the report); with no usable tool at all, the reasons are
// the message.
func TestSkippedFilesAndEntries(t *testing.T) {
	dir := t.TempDir()
	read, err := os.ReadFile(corpusTool("read"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "a_read.json", string(read))
	writeFile(t, dir, "b_broken.json", "{\"name\": \"x\",\n  \"parameters\": {]}\n")
	writeFile(t, dir, "c_entries.json", `[{"description":"no name"}, 7]`)
	base := []string{"run", "--tools", dir, "--checks", "3", "--seed", "1"}
	r := must(t, 0, base...)
	for _, want := range []string{"skipped tools (3):",
		"b_broken.json): the file is skipped: " + filepath.Join(dir, "b_broken.json") + ":2:18: not JSON",
		`c_entries.json#0): no "name"`, "c_entries.json#1): a tool definition must be a JSON object, found number"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.HasPrefix(r.stdout, "PASS ") || !strings.Contains(r.stdout, ": 1 tools,") {
		t.Errorf("want the one usable tool checked:\n%s", r.stdout)
	}
	r = must(t, 2, append(base, "--max-skipped", "0", "--format", "json")...)
	if rep := decodeReport(t, r.stdout); len(rep.Skipped) != 3 || !rep.Passed {
		t.Errorf("--max-skipped 0: the report is written all the same; got %d skipped", len(rep.Skipped))
	}
	if !strings.Contains(r.stderr, "3 tools skipped, more than --max-skipped 0 allows") {
		t.Errorf("--max-skipped 0: stderr %q", r.stderr)
	}
	must(t, 0, append(base, "--max-skipped", "3")...)

	// Nothing usable: the reasons are the message.
	os.Remove(filepath.Join(dir, "a_read.json"))
	r = must(t, 2, base...)
	if !strings.Contains(r.stderr,
		"no usable tool in "+dir+"; 3 skipped:\n  (unnamed) ("+filepath.Join(dir, "b_broken.json")+
			"): the file is skipped") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// Tools that load but that the oracle cannot use (a root that is not an object, no valid
// value) are skipped with their reasons; when that leaves none, the run checked nothing, and
// says so with exit 2 after the report instead of passing, in every format's verdict.
func TestNothingCheckedIsNoPass(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "tools.json", `[
		{"name":"scalar","description":"x","parameters":{"type":"string"}},
		{"name":"never","description":"x","parameters":{"type":"object","properties":{"a":{"type":"integer","minimum":2,"maximum":1}},"required":["a"]}}
	]`)
	base := []string{"run", "--tools", f, "--checks", "3", "--seed", "1"}
	r := must(t, 2, base...)
	if !strings.Contains(r.stderr, "no tool could be checked; all 2 were skipped") ||
		!strings.Contains(r.stdout, "skipped tools (2):") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "UNCHECKED  validator reference") ||
		!strings.Contains(r.stdout, ": 0 tools, 2 skipped (scalar, never),") {
		t.Errorf("the verdict line does not say that nothing was checked:\n%s", r.stdout)
	}
	if rep := decodeReport(t, must(t, 2, append(base, "--format", "json")...).stdout); rep.Passed {
		t.Error("the JSON report of a run that checked nothing says passed")
	}
	if md := must(t, 2, append(base, "--format", "markdown")...).stdout; !strings.Contains(md,
		"reference checked nothing (0 tools, 2 skipped") {
		t.Errorf("markdown:\n%s", md)
	}
	// One usable tool beside them: the run checks it and passes.
	g := writeFile(t, dir, "more.json",
		`[{"name":"ok","description":"x","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}]`)
	must(t, 0, "run", "--tools", f, "--tools", g, "--checks", "3", "--seed", "1")
}

// A file with tools that cannot be compiled (a pattern that is not ECMA-262: Python's (?P<x>))
// and one that can: the bad ones are skipped with their reasons, the good one is checked, and
// the run passes.
func TestBrokenToolsAreSkipped(t *testing.T) {
	f := writeFile(t, t.TempDir(), "mixed.json", `[
 {"name":"broken","parameters":{"type":5}},
 {"name":"pygroup","parameters":{"type":"object","properties":{"x":{"type":"string","pattern":"^(?P<x>a)b"}}}},
 {"name":"good","parameters":{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"],"additionalProperties":false}}
]`)
	args := []string{"run", "--tools", f, "--checks", "10", "--seed", "3", "--format", "json"}
	rep := decodeReport(t, must(t, 0, args...).stdout)
	if rep.Tools != 1 || rep.Classes["valid"].Cases != 10 {
		t.Errorf("tools %d, valid cases %d; want the good tool checked 10 times", rep.Tools, rep.Classes["valid"].Cases)
	}
	skipped := map[string]tool.Skipped{}
	for _, s := range rep.Skipped {
		skipped[s.Tool] = s
	}
	for name, why := range map[string]string{"broken": "type", "pygroup": "not an ECMA-262 regular expression"} {
		s, ok := skipped[name]
		switch {
		case !ok:
			t.Errorf("%s is not listed as skipped: %+v", name, rep.Skipped)
		case !strings.Contains(s.Source, "mixed.json") || !strings.Contains(s.Reason, why):
			t.Errorf("%s skipped with source %q, reason %q; want the file and a reason about %s", name,
				s.Source, s.Reason, why)
		}
	}
	if _, ok := skipped["good"]; ok {
		t.Errorf("the good tool was skipped: %+v", skipped["good"])
	}
	text := must(t, 0, "run", "--tools", f, "--checks", "10", "--seed", "3").stdout
	if !strings.Contains(text, "skipped tools (2):") || !strings.Contains(text, "broken (") ||
		!strings.Contains(text, "pygroup (") {
		t.Errorf("the text report does not list the skipped tools:\n%s", text)
	}
}

func TestRepairProfile(t *testing.T) {
	tools := []string{"--tools", corpusTool("read"), "--tools", corpusTool("grep")}
	base := append([]string{"run", "--checks", "20", "--seed", "1", "--mutators", "stringified_type",
		"--format", "json"}, tools...)

	// Repairs "20" to 20 and says so: passes under repair ...
	rep := decodeReport(t,
		must(t, 0, append(base, "--profile", "repair", "--validator", execSpec(t, "-value"))...).stdout)
	st := rep.Classes["stringified_type"]
	if st.Cases == 0 || st.Failed != 0 {
		t.Errorf("repair: stringified_type %d cases, %d failed; want some cases, none failed", st.Cases, st.Failed)
	}
	// ... fails under strict.
	rep = decodeReport(t,
		must(t, 1, append(base, "--profile", "strict", "--validator", execSpec(t, "-value"))...).stdout)
	if n := rep.Classes["stringified_type"].ByKind["missed"]; n == 0 {
		t.Errorf("strict: no missed stringified_type case")
	}
	// Accepting without saying what is passed on is no repair.
	rep = decodeReport(t, must(t, 1, append(base, "--profile", "repair", "--validator", execSpec(t))...).stdout)
	if n := rep.Classes["stringified_type"].ByKind["wrong_repair"]; n == 0 {
		t.Errorf("repair without a value: no wrong_repair")
	}
}

// A finding's args go in one table row of the Markdown report, whatever characters they hold
// (the markdown-fence variant of malformed_json has newlines and backticks).
func TestMarkdownFindingRowsStayOneLine(t *testing.T) {
	r := must(t, 1, "run", "--tools", corpusTool("read"), "--checks", "20", "--seed", "1",
		"--mutators", "malformed_json",
		"--format", "markdown", "--validator", execSpec(t, "-fence"))
	_, findings, ok := strings.Cut(r.stdout,
		"| tool | class | kind | args | path | at | blocking | id |\n|---|---|---|---|---|---|---|---|\n")
	if !ok {
		t.Fatalf("no findings table:\n%s", r.stdout)
	}
	findings, _, _ = strings.Cut(findings, "\n\n")
	rows := strings.Split(strings.TrimRight(findings, "\n"), "\n")
	end := regexp.MustCompile(` \| (yes|no) \| [0-9a-f]{20} \|$`)
	for _, row := range rows {
		if !strings.HasPrefix(row, "| read | malformed_json | missed | ") || !end.MatchString(row) {
			t.Errorf("a findings table row is broken: %q\nthe table:\n%s", row, findings)
		}
	}
}

// A tool whose patterns use ECMA-262 syntax RE2 lacks (lookahead, lookbehind, a backreference)
// is checked, not skipped: the oracle reads them as ECMA-262, the generator meets them, and the
// reference passes.
func TestECMAPatternsAreChecked(t *testing.T) {
	f := writeFile(t, t.TempDir(), "login.json", `{"name":"login","parameters":{"type":"object","properties":{
		"password":{"type":"string","pattern":"^(?=.*[0-9])(?=.*[a-z]).{8,}$"},
		"user":{"type":"string","pattern":"^(?!admin$)[a-z]{3,12}(?<!_)$"},
		"quoted":{"type":"string","pattern":"^(['\"])[a-z]*\\1$"}},
		"required":["password","user","quoted"],"additionalProperties":false}}`)
	rep := decodeReport(t, must(t, 0, "run", "--tools", f, "--checks", "20", "--seed", "1", "--format", "json").stdout)
	if rep.Tools != 1 || len(rep.Skipped) != 0 || rep.Classes["valid"].Cases != 20 || !rep.Passed {
		t.Errorf("tools %d, skipped %+v, valid cases %d, passed %v; want the tool checked and passed",
			rep.Tools, rep.Skipped, rep.Classes["valid"].Cases, rep.Passed)
	}
}
