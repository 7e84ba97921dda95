package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// Command-line tests: run (main's body) is called in process and judged by its exit status and
// output. run sets rapid's global flags (rapid.checks, rapid.seed), so no test here is parallel.
//
// The deliberately broken validator is testdata/coerce, a toolproof/1 program built with
// `go build` once per test binary (it validates with the reference, but reads a numeric string
// as the number it spells).

const corpusDir = "../../validator/tool/sample/tools"

func corpusTool(name string) string { return filepath.Join(corpusDir, name+".json") }

// corpusSize is the number of tools in the embedded corpus (39 when these tests were written).
var corpusSize = len(sample.Tools().Tools)

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
	// The tests read the text report as written to a pipe: FORCE_COLOR from the caller would colour it.
	os.Unsetenv("FORCE_COLOR")
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

// built holds the programs the tests build, each once per test binary, by name.
var built = struct {
	mu    sync.Mutex
	progs map[string]*program
}{progs: map[string]*program{}}

type program struct {
	once sync.Once
	path string
	err  error
}

// goBuild builds the Go package pkg (a path from this folder) into binDir/name, once per test
// binary, and returns the path of the program.
func goBuild(t testing.TB, name, pkg string) string {
	t.Helper()
	built.mu.Lock()
	p := built.progs[name]
	if p == nil {
		p = &program{}
		built.progs[name] = p
	}
	built.mu.Unlock()
	p.once.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			p.err = fmt.Errorf("the go command is not on PATH: %v", err)
			return
		}
		p.path = filepath.Join(binDir, name)
		if out, err := exec.Command(goBin, "build", "-o", p.path, pkg).CombinedOutput(); err != nil {
			p.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	if p.err != nil {
		t.Fatal(p.err)
	}
	return p.path
}

// adapter builds testdata/coerce (once) and returns the path of the binary.
func adapter(t testing.TB) string {
	t.Helper()
	return goBuild(t, "coerce", "./testdata/coerce")
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
		Unclear       int            `json:"unclear"`
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
		t.Errorf("document passed %v seed %d, its report %v %d", doc.Passed, doc.Seed,
			doc.Reports[0].Passed, doc.Reports[0].Seed)
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
			t.Errorf("class %s: %d cases + %d not applicable, want %d (one per draw)", c, st.Cases,
				st.NotApplicable, draws)
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
		if r := must(t, 0, h); !strings.Contains(r.stdout, "toolproof run") || r.stderr != "" {
			t.Errorf("%s: want the usage on stdout, got %q, stderr %q", h, r.stdout, r.stderr)
		}
	}
	want := "toolproof: unknown command \"frobnicate\"\nrun 'toolproof --help' for the commands\n"
	if r := must(t, 2, "frobnicate"); r.stderr != want {
		t.Errorf("unknown command: got %q, want %q", r.stderr, want)
	}
	if r := must(t, 0, "run", "-h"); !strings.Contains(r.stdout, "--checks N") {
		t.Errorf("run -h: want the flags of run, got %q", r.stdout)
	}
}

// ---- usage errors: exit 2 with a message naming the problem

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	notJSON := writeFile(t, dir, "notjson.json", "this is not json\n")
	badLines := writeFile(t, dir, "tools.jsonl",
		`{"name":"a","parameters":{"type":"object"}}`+"\n"+`{"name":"b", oops`+"\n")
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
		{[]string{"run", "--tools", schema},
			"no usable tool in " + schema + "; 1 skipped:\n  (unnamed) (" + schema +
				`): no "name": this is a JSON Schema, not a tool definition; give it to toolproof gen --schema FILE`},
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
		{[]string{"run", "--tools", read, "--validator", "exec:" + filepath.Join(dir, "no-such-adapter")},
			"no-such-adapter"},
		{[]string{"run", "stray"}, "takes no arguments"},
		{[]string{"run", "--no-such-flag"}, "no-such-flag"},
		{[]string{"gen", "--tools", read, "--schema", schema}, "exactly one of --tools PATH or --schema FILE"},
		{[]string{"gen"}, "exactly one of --tools PATH or --schema FILE"},
		{[]string{"gen", "--schema", notJSON}, "notjson.json:1:1: not JSON"},
		{[]string{"gen", "--schema", writeFile(t, dir, "trailing.json", "{\"type\":\"object\",\n \"x\": [1,]}")},
			"trailing.json:2:10: not JSON: trailing comma in array"},
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
