package main

// Command-line tests: run (main's body) is called in process and judged by its exit status and
// output. run sets rapid's global flags (rapid.checks, rapid.seed), so no test here is parallel.
//
// The deliberately broken validator is testdata/coerce, a toolproof/1 program built with
// `go build` once per test binary (it validates with the reference, but reads a numeric string
// as the number it spells).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/registry"
)

const corpusDir = "../../corpus/tools"

func corpusTool(name string) string { return filepath.Join(corpusDir, name+".json") }

// corpusSize is the number of tools in the embedded corpus (39 when these tests were written).
var corpusSize = len(corpus.Tools().Tools)

// binDir holds what the tests build; removed when the tests end.
var binDir string

func TestMain(m *testing.M) {
	flag.Parse()
	// The command line's tests pin counts from --checks; rapid divides its checks by 5 when
	// testing.Short() is true, which inside this test binary would turn --checks 5 into 1. So
	// they run whole under -short too (about 6 s).
	if testing.Short() {
		if err := flag.Set("test.short", "false"); err != nil {
			panic(err)
		}
	}
	// The validators run from this checkout, whose packages scripts/test installs, not from the
	// copies this binary carries (tested in validator/registry and scripts/e2e-install).
	if os.Getenv("TOOLPROOF_ROOT") == "" {
		checkout, err := filepath.Abs(filepath.Join("..", ".."))
		if err == nil {
			err = os.Setenv("TOOLPROOF_ROOT", checkout)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	dir, err := os.MkdirTemp("", "toolproof-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	adapterOnce sync.Once
	adapterPath string
	adapterErr  error
)

// adapter builds testdata/coerce (once) and returns the path of the binary.
func adapter(t testing.TB) string {
	t.Helper()
	adapterOnce.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			adapterErr = fmt.Errorf("the go command is not on PATH: %v", err)
			return
		}
		adapterPath = filepath.Join(binDir, "coerce")
		cmd := exec.Command(goBin, "build", "-o", adapterPath, "./testdata/coerce")
		if out, err := cmd.CombinedOutput(); err != nil {
			adapterErr = fmt.Errorf("go build ./testdata/coerce: %v\n%s", err, out)
		}
	})
	if adapterErr != nil {
		t.Fatal(adapterErr)
	}
	return adapterPath
}

// execSpec is the --validator value that runs the test adapter with args.
func execSpec(t *testing.T, args ...string) string {
	return "exec:'" + adapter(t) + "' " + strings.Join(args, " ")
}

type result struct {
	code           int
	stdout, stderr string
}

// cli runs the command line in process.
func cli(t *testing.T, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// want fails the test unless the exit status is code.
func (r result) want(t *testing.T, code int, args ...string) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("toolproof %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, code,
			clip(r.stdout), clip(r.stderr))
	}
	return r
}

func must(t *testing.T, code int, args ...string) result {
	t.Helper()
	return cli(t, args...).want(t, code, args...)
}

func clip(s string) string {
	if len(s) > 6000 {
		return s[:6000] + "\n... (clipped)"
	}
	return s
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// jsonReport is the shape of `run --format json`.
type jsonReport struct {
	Passed    bool   `json:"passed"`
	Seed      uint64 `json:"seed"`
	Validator string `json:"validator"`
	Tools     int    `json:"tools"`
	Cases     int    `json:"cases"`
	Classes   map[string]struct {
		Cases         int            `json:"cases"`
		Failed        int            `json:"failed"`
		NotApplicable int            `json:"not_applicable"`
		ByKind        map[string]int `json:"by_kind"`
	} `json:"classes"`
	Findings []struct {
		Tool     string `json:"tool"`
		Class    string `json:"class"`
		Kind     string `json:"kind"`
		ID       string `json:"id"`
		Args     string `json:"args"`
		Blocking bool   `json:"blocking"`
	} `json:"findings"`
	Skipped []tool.Skipped `json:"skipped"`
}

// decodeReport reads the JSON of a run of one validator: a document with one report.
func decodeReport(t *testing.T, s string) jsonReport {
	t.Helper()
	var doc jsonDocument
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatalf("the JSON report does not parse: %v\n%s", err, clip(s))
	}
	if len(doc.Reports) != 1 {
		t.Fatalf("the JSON document holds %d reports, want 1\n%s", len(doc.Reports), clip(s))
	}
	if doc.Passed != doc.Reports[0].Passed || doc.Seed != doc.Reports[0].Seed {
		t.Errorf("document passed %v seed %d, its report %v %d", doc.Passed, doc.Seed, doc.Reports[0].Passed, doc.Reports[0].Seed)
	}
	return doc.Reports[0]
}

// jsonDocument is the one JSON shape of run and replay, whatever the number of validators.
type jsonDocument struct {
	Passed  bool         `json:"passed"`
	Seed    uint64       `json:"seed"`
	Reports []jsonReport `json:"reports"`
}

// checkNoLostCases: every draw gives one valid case, and for every class either a case or a
// not-applicable count; the total is the sum over the classes.
func checkNoLostCases(t *testing.T, r jsonReport) {
	t.Helper()
	sum := 0
	for _, st := range r.Classes {
		sum += st.Cases
	}
	if sum != r.Cases {
		t.Errorf("report says %d cases, the classes hold %d", r.Cases, sum)
	}
	draws := r.Classes["valid"].Cases
	for c, st := range r.Classes {
		if c != "valid" && st.Cases+st.NotApplicable != draws {
			t.Errorf("class %s: %d cases + %d not applicable, want %d (one per draw)", c, st.Cases, st.NotApplicable, draws)
		}
	}
}

// ---- usage

func TestUsage(t *testing.T) {
	r := must(t, 2)
	if !strings.Contains(r.stderr, "Usage:") {
		t.Errorf("no arguments: want the usage on stderr, got %q", r.stderr)
	}
	for _, h := range []string{"help", "-h", "--help"} {
		if r := must(t, 0, h); !strings.Contains(r.stderr, "toolproof run") {
			t.Errorf("%s: want the usage, got %q", h, r.stderr)
		}
	}
	if r := must(t, 2, "frobnicate"); !strings.Contains(r.stderr, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: got %q", r.stderr)
	}
	if r := must(t, 0, "run", "-h"); !strings.Contains(r.stderr, "-checks") {
		t.Errorf("run -h: want the flags of run, got %q", r.stderr)
	}
}

// ---- run on the embedded corpus with the reference

func TestRunEmbeddedCorpusText(t *testing.T) {
	args := []string{"run", "--checks", "10", "--seed", "7"}
	r := must(t, 0, args...)
	if !strings.HasPrefix(r.stdout, fmt.Sprintf("PASS  validator reference, profile strict, seed 7: %d tools,", corpusSize)) {
		t.Errorf("first line: got %q", strings.SplitN(r.stdout, "\n", 2)[0])
	}
	for _, c := range append([]cases.Class{"valid"}, mutators.Classes()...) {
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
	if !ok || !regexp.MustCompile(`(?m)^  FAIL \w+: (stringified_type|wrong_type|null_value) missed: `).MatchString(demo) ||
		!strings.Contains(demo, "       passed on: {") || !strings.Contains(demo, "What next:\n  toolproof run --validator ajv-coerce") {
		t.Errorf("no demonstration after the reference's report:\n%s", r.stdout)
	}
	// Not when a validator is named, nor in other formats (the JSON stays one document).
	if r := must(t, 0, "run", "--checks", "5", "--seed", "7", "--validator", "reference"); strings.Contains(r.stdout, "What next") {
		t.Errorf("a demonstration with --validator:\n%s", r.stdout)
	}
}

// The demonstration's gate coerces at the place the reference names, as Ajv's coerceTypes does.
func TestCoercingGate(t *testing.T) {
	read, ok := corpus.Tools().Lookup("read")
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
		t.Fatalf("the JSON document: passed %v, seed %d, %d reports; want passed, seed 5, one report", doc.Passed, doc.Seed, len(doc.Reports))
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
	for _, c := range append([]cases.Class{"valid"}, mutators.Classes()...) {
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
		t.Errorf("passed=%v validator=%q tools=%d findings=%d, want true, reference, %d, 0", rep.Passed, rep.Validator, rep.Tools, len(rep.Findings), corpusSize)
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
	r := must(t, 0, "run", "--checks", "5", "--seed", "1", "--tools", corpusTool("read"), "--tools", corpusTool("grep"), "--format", "junit")
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
				t.Fatalf("not well-formed XML: an XML declaration after the start (line %d)\n%s", strings.Count(s[:d.InputOffset()], "\n")+1, clip(s))
			}
		case xml.StartElement:
			if depth == 0 {
				roots++
				if roots > 1 {
					t.Fatalf("not well-formed XML: a second root element <%s> (line %d)\n%s", tok.Name.Local, strings.Count(s[:d.InputOffset()], "\n")+1, clip(s))
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
	for _, want := range []string{"### toolproof: reference passed", "| class | cases | ok | failed | n/a |", "|---|---:|", "| valid | 5 | 5 | 0 | 0 |"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("markdown report lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestRunShardsPartitionTheTools(t *testing.T) {
	total := 0
	for _, s := range []string{"0/3", "1/3", "2/3"} {
		rep := decodeReport(t, must(t, 0, "run", "--checks", "2", "--seed", "1", "--shard", s, "--format", "json").stdout)
		total += rep.Tools
	}
	if total != corpusSize {
		t.Errorf("shards 0/3, 1/3 and 2/3 checked %d tools in all, want %d", total, corpusSize)
	}
}

// ---- usage errors: exit 2 with a message naming the problem

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
	for _, want := range []string{"skipped tools (3):", "b_broken.json): the file is skipped: " + filepath.Join(dir, "b_broken.json") + ":2:18: not JSON",
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
	if !strings.Contains(r.stderr, "no usable tool in "+dir+"; 3 skipped:\n  (unnamed) ("+filepath.Join(dir, "b_broken.json")+"): the file is skipped") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// Tools that load but that the oracle cannot use (a lookaround RE2 cannot compile, no valid
// value) are skipped with their reasons; when that leaves none, the run checked nothing, and
// says so with exit 2 after the report instead of passing.
func TestNothingCheckedIsNoPass(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "tools.json", `[
		{"name":"look","description":"x","parameters":{"type":"object","properties":{"a":{"type":"string","pattern":"^(?=a)ab$"}},"required":["a"]}},
		{"name":"never","description":"x","parameters":{"type":"object","properties":{"a":{"type":"integer","minimum":2,"maximum":1}},"required":["a"]}}
	]`)
	r := must(t, 2, "run", "--tools", f, "--checks", "3", "--seed", "1")
	if !strings.Contains(r.stderr, "no tool could be checked; all 2 were skipped") || !strings.Contains(r.stdout, "skipped tools (2):") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	// One usable tool beside them: the run checks it and passes.
	g := writeFile(t, dir, "more.json", `[{"name":"ok","description":"x","parameters":{"type":"object","properties":{"a":{"type":"string"}}}}]`)
	must(t, 0, "run", "--tools", f, "--tools", g, "--checks", "3", "--seed", "1")
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	notJSON := writeFile(t, dir, "notjson.json", "this is not json\n")
	badLines := writeFile(t, dir, "tools.jsonl", `{"name":"a","parameters":{"type":"object"}}`+"\n"+`{"name":"b", oops`+"\n")
	schema := writeFile(t, dir, "schema.json", `{"type":"object"}`)
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	badCases := filepath.Join(dir, "badcases")
	if err := os.Mkdir(badCases, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, badCases, "x.json", `{"tool":"read"}`)
	read := corpusTool("read")
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"run", "--tools", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"run", "--tools", notJSON}, "notjson.json:1:2: not JSON: invalid character 'h'"},
		{[]string{"run", "--tools", badLines}, "tools.jsonl:2:14: not JSON"},
		{[]string{"run", "--tools", schema}, "no usable tool in " + schema + "; 1 skipped:\n  (unnamed) (" + schema + `): no "name": this is a JSON Schema, not a tool definition; give it to toolproof gen --schema FILE`},
		{[]string{"audit", "--tools", badLines}, "tools.jsonl:2"},
		{[]string{"gen", "--tools", notJSON}, "notjson.json"},
		{[]string{"run", "--profile", "wrong"}, `--profile "wrong"`},
		{[]string{"run", "--format", "wrong"}, `--format "wrong"`},
		{[]string{"run", "--shard", "3/2"}, `--shard "3/2"`},
		{[]string{"run", "--shard", "x"}, `--shard "x"`},
		{[]string{"run", "--validator", "nope"}, `unknown validator "nope"`},
		{[]string{"run", "--mutators", "nope"}, `unknown mutator "nope"`},
		{[]string{"run", "--checks", "-1"}, "--checks"},
		{[]string{"run", "--checks", "0"}, "--checks"},
		{[]string{"run", "--validator", "exec:"}, "empty command"},
		{[]string{"run", "--tools", read, "--validator", "exec:" + filepath.Join(dir, "no-such-adapter")}, "no-such-adapter"},
		{[]string{"run", "stray"}, "takes no arguments"},
		{[]string{"run", "--no-such-flag"}, "no-such-flag"},
		{[]string{"gen", "--tools", read, "--schema", schema}, "exactly one of --tools PATH or --schema FILE"},
		{[]string{"gen"}, "exactly one of --tools PATH or --schema FILE"},
		{[]string{"gen", "--schema", notJSON}, "notjson.json:1:1: not JSON"},
		{[]string{"gen", "--schema", writeFile(t, dir, "trailing.json", "{\"type\":\"object\",\n \"x\": [1,]}")}, "trailing.json:2:10: not JSON: trailing comma in array"},
		{[]string{"gen", "--schema", read}, "this is a tool definition, not a JSON Schema: give it with --tools"},
		{[]string{"gen", "--schema", filepath.Join(dir, "nope.json")}, "nope.json"},
		{[]string{"gen", "--tools", read, "--n", "0"}, "--n"},
		{[]string{"gen", "--tools", read, "--format", "yaml"}, `--format "yaml"`},
		{[]string{"gen", "--tools", read, "--mutators", "nope"}, `unknown mutator "nope"`},
		{[]string{"replay"}, "one directory"},
		{[]string{"replay", empty}, "no saved cases"},
		{[]string{"replay", filepath.Join(dir, "gone")}, "not a directory"},
		{[]string{"replay", notJSON}, "not a directory"},
		{[]string{"replay", badCases}, "x.json"},
		{[]string{"audit", "--format", "xml"}, `--format "xml"`},
		{[]string{"audit", "stray"}, "takes no arguments"},
		{[]string{"validators", "stray"}, "takes no arguments"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := cli(t, tc.args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", r.code, clip(r.stdout), clip(r.stderr))
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr does not say %q:\n%s", tc.want, r.stderr)
			}
			if !strings.Contains(r.stderr, "toolproof: ") {
				t.Errorf("stderr has no toolproof: message:\n%s", r.stderr)
			}
		})
	}
}

// A file with tools that cannot be compiled and one that can: the bad ones are skipped with
// their reasons, the good one is checked, and the run passes.
func TestBrokenToolsAreSkipped(t *testing.T) {
	f := writeFile(t, t.TempDir(), "mixed.json", `[
 {"name":"broken","parameters":{"type":5}},
 {"name":"lookahead","parameters":{"type":"object","properties":{"x":{"type":"string","pattern":"^(?=a)b"}}}},
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
	for name, why := range map[string]string{"broken": "type", "lookahead": "regex"} {
		s, ok := skipped[name]
		switch {
		case !ok:
			t.Errorf("%s is not listed as skipped: %+v", name, rep.Skipped)
		case !strings.Contains(s.Source, "mixed.json") || !strings.Contains(s.Reason, why):
			t.Errorf("%s skipped with source %q, reason %q; want the file and a reason about %s", name, s.Source, s.Reason, why)
		}
	}
	if _, ok := skipped["good"]; ok {
		t.Errorf("the good tool was skipped: %+v", skipped["good"])
	}
	text := must(t, 0, "run", "--tools", f, "--checks", "10", "--seed", "3").stdout
	if !strings.Contains(text, "skipped tools (2):") || !strings.Contains(text, "broken (") || !strings.Contains(text, "lookahead (") {
		t.Errorf("the text report does not list the skipped tools:\n%s", text)
	}
}

// ---- gen

type genOut struct {
	Tool       *string `json:"tool"`
	Args       *string `json:"args"`
	ArgsBase64 *string `json:"args_base64"`
	Expect     *string `json:"expect"`
	Class      *string `json:"class"`
	Variant    string  `json:"variant"`
	Path       *string `json:"path"`
	Keyword    *string `json:"keyword"`
	Reason     *string `json:"reason"`
	Canary     string  `json:"canary"`
	ID         *string `json:"id"`
	SchemaHash string  `json:"schema_hash"`
	Scope      string  `json:"scope"`
	Also       []struct {
		Path  string `json:"path"`
		Scope string `json:"scope"`
	} `json:"also"`
	Original string `json:"original"`
}

func parseGen(t *testing.T, out string) []genOut {
	t.Helper()
	var lines []genOut
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var l genOut
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.DisallowUnknownFields()
		if err := d.Decode(&l); err != nil {
			t.Fatalf("gen line %d: %v\n%s", n, err, sc.Text())
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func (l genOut) raw(t *testing.T) []byte {
	t.Helper()
	switch {
	case l.Args != nil && l.ArgsBase64 == nil:
		return []byte(*l.Args)
	case l.ArgsBase64 != nil && l.Args == nil:
		b, err := base64.StdEncoding.DecodeString(*l.ArgsBase64)
		if err != nil {
			t.Fatalf("args_base64: %v", err)
		}
		return b
	}
	t.Fatalf("a line needs exactly one of args and args_base64: %+v", l)
	return nil
}

// rootClasses are the classes that distort the arguments as a whole: their path is the root "",
// which gen's JSON leaves out.
var rootClasses = map[string]bool{"root_not_object": true, "malformed_json": true, "wrapper_nesting": true, "implementation_defined": true}

func TestGenDeterministicAndComplete(t *testing.T) {
	names := []string{"read", "grep", "http_request", "deploy_service"}
	gen := func(seed string) string {
		args := []string{"gen", "--n", "3", "--seed", seed, "--valid", "--mutated"}
		for _, n := range names {
			args = append(args, "--tools", corpusTool(n))
		}
		return must(t, 0, args...).stdout
	}
	a, b, other := gen("9"), gen("9"), gen("10")
	if a != b {
		t.Fatal("gen with the same seed gave different output")
	}
	if a == other {
		t.Fatal("gen with seeds 9 and 10 gave the same output")
	}
	oracles := map[string]*validator.Gatekeeper{}
	for _, n := range names {
		set, err := tool.Load(corpusTool(n))
		if err != nil {
			t.Fatal(err)
		}
		gk, err := validator.Compile(set.Tools[0])
		if err != nil {
			t.Fatal(err)
		}
		oracles[n] = gk
	}
	lines := parseGen(t, a)
	byID := map[string]string{}
	valid := map[string]int{}
	classes := map[string]bool{}
	for i, l := range lines {
		if l.Tool == nil || l.Expect == nil || l.Class == nil || l.ID == nil {
			t.Fatalf("line %d lacks tool, expect, class or id: %+v", i+1, l)
		}
		raw := l.raw(t)
		tl, class, expect, id := *l.Tool, *l.Class, *l.Expect, *l.ID
		classes[class] = true
		if want := cases.ComputeID(tl, cases.Class(class), cases.Expect(expect), raw); id != want {
			t.Errorf("line %d: id %s, want the content hash %s", i+1, id, want)
		}
		content := tl + "\x00" + class + "\x00" + expect + "\x00" + string(raw)
		if prev, ok := byID[id]; ok && prev != content {
			t.Errorf("line %d: id %s names two different cases", i+1, id)
		}
		byID[id] = content
		gk := oracles[tl]
		if gk == nil {
			t.Fatalf("line %d: unknown tool %q", i+1, tl)
		}
		_, err := gk.Parse(raw)
		switch expect {
		case "accept":
			if class != "valid" {
				t.Errorf("line %d: class %s expects accept", i+1, class)
			}
			valid[tl]++
			if err != nil {
				t.Errorf("line %d: a valid case the reference rejects: %v\n%s", i+1, err, raw)
			}
		case "reject":
			if err == nil {
				t.Errorf("line %d: a %s case the reference accepts:\n%s", i+1, class, raw)
			}
		case "either":
			if class != "implementation_defined" {
				t.Errorf("line %d: class %s expects either", i+1, class)
			}
		default:
			t.Errorf("line %d: expect %q", i+1, expect)
		}
		if class == "valid" {
			continue
		}
		if l.Reason == nil || *l.Reason == "" {
			t.Errorf("line %d (%s): no reason", i+1, class)
		}
		if expect == "reject" && (l.Keyword == nil || *l.Keyword == "") {
			t.Errorf("line %d (%s): no keyword", i+1, class)
		}
		// Every distortion says where it is; whole-argument ones are at the root, "".
		switch {
		case l.Path == nil:
			t.Errorf("line %d (%s): no path", i+1, class)
		case rootClasses[class] && *l.Path != "":
			t.Errorf("line %d (%s): path %q, want the root \"\"", i+1, class, *l.Path)
		case !rootClasses[class] && *l.Path != "" && !strings.HasPrefix(*l.Path, "/"):
			t.Errorf("line %d (%s): path %q is not a JSON Pointer", i+1, class, *l.Path)
		}
	}
	for _, n := range names {
		if valid[n] != 3 {
			t.Errorf("tool %s: %d valid lines, want 3 (--n 3)", n, valid[n])
		}
	}
	for _, c := range []string{"valid", "stringified_type", "hallucinated_key", "out_of_range_enum", "malformed_json"} {
		if !classes[c] {
			t.Errorf("no %s line", c)
		}
	}

	// --valid alone (the default) gives only valid lines; --mutated alone only distortions.
	for _, tc := range []struct {
		flag      string
		wantValid bool
	}{{"", true}, {"--valid", true}, {"--mutated", false}} {
		args := []string{"gen", "--tools", corpusTool("read"), "--n", "2", "--seed", "9"}
		if tc.flag != "" {
			args = append(args, tc.flag)
		}
		for _, l := range parseGen(t, must(t, 0, args...).stdout) {
			if (*l.Class == "valid") != tc.wantValid {
				t.Errorf("gen %q: a %s line", tc.flag, *l.Class)
			}
		}
	}
}

func TestGenSchemaFile(t *testing.T) {
	f := writeFile(t, t.TempDir(), "weather_args.json",
		`{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1,"maximum":14}},"required":["city"],"additionalProperties":false}`)
	lines := parseGen(t, must(t, 0, "gen", "--schema", f, "--n", "4", "--seed", "2", "--mutated", "--valid").stdout)
	if len(lines) == 0 {
		t.Fatal("no lines")
	}
	for _, l := range lines {
		if *l.Tool != "weather_args" {
			t.Fatalf("tool %q, want the file's base name weather_args", *l.Tool)
		}
	}
}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       *bool           `json:"valid"`
	} `json:"tests"`
}

// The test-suite export must never hold a wrong expectation: every test is checked with the
// reference here, and with Python's jsonschema when it is installed.
func TestGenTestSuiteMatchesTheReference(t *testing.T) {
	for _, closed := range []bool{false, true} {
		t.Run(fmt.Sprintf("close=%v", closed), func(t *testing.T) {
			args := []string{"gen", "--tools", corpusDir, "--n", "3", "--seed", "9", "--valid", "--mutated", "--format", "test-suite"}
			if closed {
				args = append(args, "--close")
			}
			r := must(t, 0, args...)
			var groups []suiteGroup
			d := json.NewDecoder(strings.NewReader(r.stdout))
			d.DisallowUnknownFields()
			if err := d.Decode(&groups); err != nil {
				t.Fatalf("the test suite does not parse as [{description, schema, tests}]: %v", err)
			}
			if len(groups) != corpusSize {
				seen := map[string]bool{}
				for _, g := range groups {
					seen[strings.TrimPrefix(g.Description, "toolproof cases for tool ")] = true
				}
				var missing []string
				for _, tl := range corpus.Tools().Tools {
					if !seen[tl.Name] {
						missing = append(missing, tl.Name)
					}
				}
				t.Errorf("%d groups, want one per corpus tool (%d); no group for %v", len(groups), corpusSize, missing)
			}
			counts := map[bool]int{}
			for _, g := range groups {
				if g.Description == "" || len(g.Tests) == 0 {
					t.Errorf("group %q: empty description or no tests", g.Description)
				}
				gk, err := validator.Compile(tool.Tool{Name: "suite", Parameters: g.Schema})
				if err != nil {
					t.Errorf("group %q: the schema does not compile: %v", g.Description, err)
					continue
				}
				annotation := compileAnnotationOnly(t, g.Schema)
				if closed && !bytes.Contains(g.Schema, []byte(`"additionalProperties":false`)) && !bytes.Contains(g.Schema, []byte(`"additionalProperties": false`)) {
					t.Errorf("group %q: --close, but the schema given is not closed", g.Description)
				}
				for _, tc := range g.Tests {
					if tc.Description == "" || tc.Valid == nil || tc.Data == nil {
						t.Errorf("group %q: a test lacks description, data or valid", g.Description)
						continue
					}
					v, err := jsonvalue.Parse(tc.Data)
					if err != nil {
						t.Errorf("group %q, %q: data: %v", g.Description, tc.Description, err)
						continue
					}
					counts[*tc.Valid]++
					if got := gk.Valid(v); got != *tc.Valid {
						t.Errorf("group %q, %q: valid %v, but the reference says %v for %s", g.Description, tc.Description, *tc.Valid, got, tc.Data)
					}
					if got := annotation.valid(v); got != *tc.Valid {
						t.Errorf("group %q, %q: valid %v, but with format as an annotation (the test suite's default) the schema says %v for %s",
							g.Description, tc.Description, *tc.Valid, got, tc.Data)
					}
				}
			}
			if counts[true] == 0 || counts[false] == 0 {
				t.Errorf("valid tests %d, invalid tests %d: want both", counts[true], counts[false])
			}
			f := writeFile(t, t.TempDir(), "suite.json", r.stdout)
			checkWithPython(t, f)
		})
	}
}

// A JSON-Schema-Test-Suite file is replayed by runners that treat format as an annotation (draft
// 2020-12's default; format assertions live in the suite's optional/format directory): an export
// whose expectation holds only when formats are asserted is wrong for them.
func TestGenTestSuiteHoldsWithFormatAsAnnotation(t *testing.T) {
	// source is anyOf [{format: ipv4}, {pattern: CIDR}, {const: "any"}]: "ANY" breaks the const, but
	// is a valid string wherever ipv4 is not asserted.
	r := must(t, 0, "gen", "--tools", corpusTool("firewall_add_rule"), "--n", "30", "--seed", "3", "--mutated", "--mutators", "out_of_range_enum", "--format", "test-suite")
	var groups []suiteGroup
	if err := json.Unmarshal([]byte(r.stdout), &groups); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, g := range groups {
		annotation := compileAnnotationOnly(t, g.Schema)
		for _, tc := range g.Tests {
			v, err := jsonvalue.Parse(tc.Data)
			if err != nil {
				t.Fatal(err)
			}
			if annotation.valid(v) != *tc.Valid {
				bad++
				if bad <= 3 {
					t.Errorf("%q: valid %v only when formats are asserted: %s", tc.Description, *tc.Valid, tc.Data)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d exported tests hold only when formats are asserted", bad)
	}
	checkWithPython(t, writeFile(t, t.TempDir(), "suite.json", r.stdout))
}

// annotationOnly is a schema compiled as JSON-Schema-Test-Suite runners do by default: draft
// 2020-12 unless $schema says otherwise, format an annotation, no remote references.
type annotationOnly struct{ s *jsonschema.Schema }

func (a annotationOnly) valid(v any) bool { return a.s.Validate(v) == nil }

func compileAnnotationOnly(t *testing.T, schema json.RawMessage) annotationOnly {
	t.Helper()
	doc, err := jsonvalue.Parse(schema)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const loc = "mem://suite/schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		t.Fatalf("the exported schema does not compile: %v", err)
	}
	return annotationOnly{s}
}

const pythonSuiteCheck = `
import json, sys
from jsonschema import validators, Draft202012Validator
groups = json.load(open(sys.argv[1]))
bad = 0
n = 0
for g in groups:
    cls = validators.validator_for(g["schema"], default=Draft202012Validator)
    v = cls(g["schema"])
    for t in g["tests"]:
        n += 1
        if v.is_valid(t["data"]) != t["valid"]:
            bad += 1
            print("disagree:", g["description"], "|", t["description"], "| valid:", t["valid"], "|", json.dumps(t["data"])[:300])
print("checked", n, "tests,", bad, "disagreements")
sys.exit(1 if bad else 0)
`

// checkWithPython validates an exported test suite with Python's jsonschema (formats as
// annotations, as the JSON-Schema-Test-Suite runners do). Skipped, alone, when python3 or the
// jsonschema package is not there.
func checkWithPython(t *testing.T, file string) {
	t.Run("python-jsonschema", func(t *testing.T) {
		py, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 is not on PATH: the export was checked with the reference only")
		}
		if out, err := exec.Command(py, "-c", "import jsonschema").CombinedOutput(); err != nil {
			t.Skipf("python3 has no jsonschema package (%s): the export was checked with the reference only", bytes.TrimSpace(out))
		}
		out, err := exec.Command(py, "-c", pythonSuiteCheck, file).CombinedOutput()
		if err != nil {
			t.Errorf("Python's jsonschema disagrees with the exported expectations: %v\n%s", err, clip(string(out)))
		} else {
			t.Logf("python jsonschema: %s", bytes.TrimSpace(out))
		}
	})
}

// ---- a broken validator: findings, --save, replay

func TestExecAdapterFindingsSaveReplay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "saved")
	tools := []string{"--tools", corpusTool("read"), "--tools", corpusTool("grep")}
	spec := execSpec(t)
	base := append([]string{"run", "--validator", spec, "--checks", "20", "--seed", "1"}, tools...)

	text := must(t, 1, base...).stdout
	if !strings.HasPrefix(text, "FAIL  validator coerce 0") {
		t.Errorf("first line: %q", strings.SplitN(text, "\n", 2)[0])
	}
	if !regexp.MustCompile(`(?m)^FAIL (read|grep): stringified_type missed: the number at /\S+ written as the string`).MatchString(text) {
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
	replayed := decodeReport(t, must(t, 1, append([]string{"replay", dir, "--validator", spec, "--format", "json"}, tools...)...).stdout)
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
	if !regexp.MustCompile(`<testsuite name="toolproof/stringified_type" tests="\d+" failures="[1-9]\d*"`).MatchString(junit) {
		t.Errorf("junit: no failure in the stringified_type suite:\n%s", clip(junit))
	}
}

// A replay that replays nothing (no tool given defines the tools the saved cases name) must not
// pass: a mistyped --tools in CI would hide every saved regression.
func TestReplayOfNoCaseIsAnError(t *testing.T) {
	dir := t.TempDir()
	c := cases.Case{Tool: "read", Args: []byte(`{"path":"a","limit":"20"}`), Expect: "reject", Class: "stringified_type",
		Path: "/limit", Keyword: "type", Original: []byte(`{"path":"a","limit":20}`)}.Seal()
	if _, err := cases.Save(dir, c); err != nil {
		t.Fatal(err)
	}
	must(t, 0, "replay", dir) // the embedded corpus defines read
	r := cli(t, "replay", dir, "--tools", corpusTool("grep"))
	if r.code != 2 || !strings.Contains(r.stderr, "read") {
		t.Errorf("replay of cases for read with only grep given: exit %d, want 2 with a message naming read\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestRepairProfile(t *testing.T) {
	tools := []string{"--tools", corpusTool("read"), "--tools", corpusTool("grep")}
	base := append([]string{"run", "--checks", "20", "--seed", "1", "--mutators", "stringified_type", "--format", "json"}, tools...)

	// Repairs "20" to 20 and says so: passes under repair ...
	rep := decodeReport(t, must(t, 0, append(base, "--profile", "repair", "--validator", execSpec(t, "-value"))...).stdout)
	st := rep.Classes["stringified_type"]
	if st.Cases == 0 || st.Failed != 0 {
		t.Errorf("repair: stringified_type %d cases, %d failed; want some cases, none failed", st.Cases, st.Failed)
	}
	// ... fails under strict.
	rep = decodeReport(t, must(t, 1, append(base, "--profile", "strict", "--validator", execSpec(t, "-value"))...).stdout)
	if n := rep.Classes["stringified_type"].ByKind["missed"]; n == 0 {
		t.Errorf("strict: no missed stringified_type case")
	}
	// Accepting without saying what is passed on is no repair.
	rep = decodeReport(t, must(t, 1, append(base, "--profile", "repair", "--validator", execSpec(t))...).stdout)
	if n := rep.Classes["stringified_type"].ByKind["wrong_repair"]; n == 0 {
		t.Errorf("repair without a value: no wrong_repair")
	}
}

// ---- comparison

func TestComparisonTable(t *testing.T) {
	base := []string{"run", "--tools", corpusTool("read"), "--checks", "10", "--seed", "2", "--validator", "reference", "--validator", execSpec(t)}
	text := must(t, 1, base...).stdout
	lines := strings.Split(text, "\n")
	if f := strings.Fields(lines[0]); len(f) != 4 || f[0] != "class" || f[1] != "reference" || f[2] != "coerce" || f[3] != "0" {
		t.Errorf("header %q, want class, reference, coerce 0", lines[0])
	}
	if strings.Count(text, "class") != 1 {
		t.Errorf("want one table:\n%s", text)
	}
	row := regexp.MustCompile(`(?m)^stringified_type\s+(\d+)/(\d+)\s+(\d+)/(\d+)`).FindStringSubmatch(text)
	if row == nil {
		t.Fatalf("no stringified_type row:\n%s", text)
	}
	if row[1] != row[2] || row[3] == row[4] {
		t.Errorf("stringified_type: reference %s/%s, coerce %s/%s; want the reference to catch all, coerce to miss some", row[1], row[2], row[3], row[4])
	}

	// The table lists every finding of the coercing validator, with its id.
	if !regexp.MustCompile(`(?m)^findings of coerce 0 \(\d+;`).MatchString(text) || !regexp.MustCompile(`(?m)^  FAIL read: stringified_type missed`).MatchString(text) ||
		!regexp.MustCompile(`(?m)^       args .* id [0-9a-f]{20}$`).MatchString(text) {
		t.Errorf("the comparison does not list the findings:\n%s", text)
	}
	if !strings.Contains(text, "\nseed 2\n") {
		t.Errorf("the comparison does not give the seed:\n%s", text)
	}

	// The same JSON shape as one validator's: a document with a report each.
	var cmpJSON jsonDocument
	if err := json.Unmarshal([]byte(must(t, 1, append(base, "--format", "json")...).stdout), &cmpJSON); err != nil {
		t.Fatal(err)
	}
	if cmpJSON.Passed || cmpJSON.Seed != 2 || len(cmpJSON.Reports) != 2 || cmpJSON.Reports[0].Validator != "reference" ||
		cmpJSON.Reports[1].Validator != "coerce 0" || len(cmpJSON.Reports[1].Findings) == 0 {
		t.Errorf("comparison JSON: passed %v, seed %d, %d reports", cmpJSON.Passed, cmpJSON.Seed, len(cmpJSON.Reports))
	}
	md := must(t, 1, append(base, "--format", "markdown")...).stdout
	if !strings.HasPrefix(md, "| class | reference | coerce 0 |") {
		t.Errorf("markdown comparison header: %q", strings.SplitN(md, "\n", 2)[0])
	}
	if !strings.Contains(md, "\nSeed 2.\n") || !strings.Contains(md, "<details><summary>coerce 0: ") || !strings.Contains(md, "| read | stringified_type | missed | ") {
		t.Errorf("markdown comparison: no seed or no findings:\n%s", md)
	}
}

// Several validators with --format junit: one XML document (a JUnit consumer reads one).
func TestComparisonJUnitIsOneDocument(t *testing.T) {
	r := must(t, 1, "run", "--tools", corpusTool("read"), "--checks", "5", "--seed", "2", "--format", "junit",
		"--validator", "reference", "--validator", execSpec(t))
	checkWellFormedXML(t, r.stdout)
}

// A finding's args go in one table row of the Markdown report, whatever characters they hold
// (the markdown-fence variant of malformed_json has newlines and backticks).
func TestMarkdownFindingRowsStayOneLine(t *testing.T) {
	r := must(t, 1, "run", "--tools", corpusTool("read"), "--checks", "20", "--seed", "1", "--mutators", "malformed_json",
		"--format", "markdown", "--validator", execSpec(t, "-fence"))
	_, findings, ok := strings.Cut(r.stdout, "| tool | class | kind | args | path | blocking | id |\n|---|---|---|---|---|---|---|\n")
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

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Each report of a comparison keeps its own skipped tools: the tools skipped while loading are
// shared, the ones a validator refused are its own.
func TestComparisonKeepsEachValidatorsSkippedTools(t *testing.T) {
	dir := t.TempDir()
	var args []string
	// Three files with an entry that is no tool definition: three entries skipped while loading.
	for i := 1; i <= 3; i++ {
		f := writeFile(t, dir, fmt.Sprintf("junk%d.json", i), fmt.Sprintf(`[%d]`, i))
		args = append(args, "--tools", f)
	}
	ab := writeFile(t, dir, "ab.json", `[{"name":"ta","parameters":{"type":"object","properties":{"s":{"type":"string"}}}},
		{"name":"tb","parameters":{"type":"object","properties":{"s":{"type":"string"}}}}]`)
	args = append(args, "--tools", ab, "--checks", "3", "--seed", "1", "--format", "json",
		"--validator", execSpec(t, "-name", "v1", "-refuse", "ta"), "--validator", execSpec(t, "-name", "v2", "-refuse", "tb"))
	var out jsonDocument
	if err := json.Unmarshal([]byte(must(t, 0, append([]string{"run"}, args...)...).stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Reports) != 2 {
		t.Fatalf("%d reports", len(out.Reports))
	}
	for i, want := range []struct{ validator, refused string }{{"v1 0", "ta"}, {"v2 0", "tb"}} {
		r := out.Reports[i]
		var names []string
		for _, s := range r.Skipped {
			names = append(names, s.Tool)
		}
		sort.Strings(names)
		if d := cmp.Diff([]string{"", "", "", want.refused}, names); r.Validator != want.validator || d != "" {
			t.Errorf("report %d (%s): skipped tools (-want +got):\n%s", i, r.Validator, d)
			for _, s := range r.Skipped {
				t.Logf("  %s", s)
			}
		}
	}
}

// ---- audit, validators

func TestAudit(t *testing.T) {
	f := writeFile(t, t.TempDir(), "open.json", `{"name":"open_tool","parameters":{"type":"object",
		"properties":{"id":{"type":["integer","string"]},"note":{"type":"string"},"mode":{"type":"string","enum":["a","b"]}},
		"required":["id"]}}`)
	text := must(t, 0, "audit", "--tools", f).stdout
	if !strings.HasPrefix(text, "open_tool\n") {
		t.Errorf("the audit does not start with the tool name:\n%s", text)
	}
	for _, tc := range []struct{ class, why string }{
		{"hallucinated_key", "the root is an open object"},
		{"stringified_type", "/id is typed [integer, string]"},
		{"out_of_range_enum", "/note is a free string"},
	} {
		if !regexp.MustCompile(`(?m)^  ` + tc.class + `\s+PASSES at`).MatchString(text) {
			t.Errorf("the audit does not say %s passes:\n%s", tc.class, text)
		}
		if !strings.Contains(text, "passes  "+tc.why) {
			t.Errorf("the audit does not say why %s passes (%q):\n%s", tc.class, tc.why, text)
		}
	}
	if !regexp.MustCompile(`(?m)^      passes  the root is an open object.*\n              witness at /\w+: \{.*\}\n              accepted$`).MatchString(text) {
		t.Errorf("the audit does not show the witness of a pass:\n%s", text)
	}
	if !regexp.MustCompile(`(?m)^  missing_required\s+caught at all`).MatchString(text) {
		t.Errorf("the audit does not say missing_required is caught:\n%s", text)
	}
	closed := must(t, 0, "audit", "--tools", f, "--close").stdout
	if !regexp.MustCompile(`(?m)^  hallucinated_key\s+caught at all`).MatchString(closed) {
		t.Errorf("--close: hallucinated_key should be caught everywhere:\n%s", closed)
	}

	var js struct {
		Tools []struct {
			Tool   string `json:"tool"`
			Places []struct {
				Class   string `json:"class"`
				Path    string `json:"path"`
				Verdict string `json:"verdict"`
				Why     string `json:"why"`
				Witness *struct {
					Args string `json:"args"`
				} `json:"witness"`
			} `json:"places"`
		} `json:"tools"`
		Skipped []tool.Skipped `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(must(t, 0, "audit", "--tools", f, "--format", "json").stdout), &js); err != nil {
		t.Fatalf("audit --format json: %v", err)
	}
	if len(js.Tools) != 1 || js.Tools[0].Tool != "open_tool" {
		t.Fatalf("audit json: %+v", js)
	}
	passes := map[string]string{}
	for _, p := range js.Tools[0].Places {
		if p.Verdict == "passes" {
			passes[p.Class] = p.Path
		}
		if p.Verdict != "not_determined" && (p.Witness == nil || p.Witness.Args == "") {
			t.Errorf("audit json: %s at %q is %s without a witness", p.Class, p.Path, p.Verdict)
		}
	}
	// wrong_type passes at /id too: a number in place of a string is allowed by [integer, string].
	if d := cmp.Diff(map[string]string{"hallucinated_key": "", "stringified_type": "/id", "out_of_range_enum": "/note", "wrong_type": "/id"}, passes); d != "" {
		t.Errorf("audit json: classes that pass, and where (-want +got):\n%s", d)
	}
}

// An unsatisfiable tool is said to be one, with its reason, and listed among the tools that
// cannot be used; --all shows what the oracle rejected for a caught place.
func TestAuditUnsatisfiable(t *testing.T) {
	f := writeFile(t, t.TempDir(), "tools.json", `[{"name":"never","parameters":{"type":"object","properties":{"a":{"type":"string","minLength":5,"maxLength":2}},"required":["a"]}},
		{"name":"fine","parameters":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false}}]`)
	text := must(t, 0, "audit", "--tools", f, "--all").stdout
	for _, want := range []string{"never\n  UNSATISFIABLE: /a: ", "cannot be used (1):\n  never (", "rejected: /a: must be integer"} {
		if !strings.Contains(text, want) {
			t.Errorf("audit --all does not say %q:\n%s", want, text)
		}
	}
	var js struct {
		Tools []struct {
			Tool          string `json:"tool"`
			Unsatisfiable string `json:"unsatisfiable"`
		} `json:"tools"`
		Skipped []tool.Skipped `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(must(t, 0, "audit", "--tools", f, "--format", "json").stdout), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Tools) != 2 || js.Tools[0].Unsatisfiable == "" || js.Tools[1].Unsatisfiable != "" {
		t.Errorf("audit json tools: %+v", js.Tools)
	}
	if len(js.Skipped) != 1 || js.Skipped[0].Tool != "never" || !strings.Contains(js.Skipped[0].Reason, "unsatisfiable") {
		t.Errorf("audit json skipped: %+v", js.Skipped)
	}
}

func TestAuditEmbeddedCorpus(t *testing.T) {
	var js struct {
		Tools   []json.RawMessage `json:"tools"`
		Skipped []tool.Skipped    `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(must(t, 0, "audit", "--format", "json").stdout), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Tools) != corpusSize || len(js.Skipped) != 0 {
		t.Errorf("audit of the embedded corpus: %d tools, %d skipped; want %d, 0", len(js.Tools), len(js.Skipped), corpusSize)
	}
}

func TestValidatorsListsEveryName(t *testing.T) {
	out := must(t, 0, "validators").stdout
	for _, e := range registry.Entries() {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(e.Name) + `\s+\S`).MatchString(out) {
			t.Errorf("validators does not list %s:\n%s", e.Name, out)
		}
	}
	for _, s := range []string{"builtin:NAME", "exec:COMMAND"} {
		if !strings.Contains(out, s) {
			t.Errorf("validators does not mention %s", s)
		}
	}
}
