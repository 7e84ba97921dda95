package registry_test

// Integration tests of the named validators: the node adapters (validator/node, after `npm ci`)
// and the Go zoo (the nested module validator/zoo/, built by the registry with `go build`), run through the
// harness on part of the embedded corpus with a few checks per tool.
//
// Node-backed tests skip when node or validator/node/node_modules is missing, and fail instead
// when TOOLPROOF_REQUIRE_NODE=1. rapid's flags set the size of the runs: -rapid.checks defaults
// to 20 and -rapid.seed to 1 here (pass them to change that); -rapid.shrinktime to 1s.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/needs"
	"github.com/toolproof/toolproof/internal/testflags"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/stdio"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

func TestMain(m *testing.M) {
	flag.Parse()
	testflags.Default(map[string]string{"rapid.checks": "20", "rapid.seed": "1", "rapid.shrinktime": "1s"})
	// No rapid fail files under testdata/: these runs are not regressions of this package.
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// root is the checkout: this package is validator/registry.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tools returns the named corpus tools, in the order given.
func tools(t *testing.T, names ...string) []tool.Tool {
	t.Helper()
	out, err := sample.Tools().Pick(names...)
	if err != nil {
		t.Fatalf("the corpus: %v", err)
	}
	return out
}

// The tools most runs use: closed objects, numbers, booleans, enums, patterns, $ref,
// if/then/else, arrays of objects.
var subset = []string{"read", "bash", "grep", "deploy_service", "http_request", "calendar_list_events",
	"firewall_add_rule", "git_commit", "kv_set", "search_products"}

// requireNode skips the test (fails it under TOOLPROOF_REQUIRE_NODE=1) when the node adapters
// cannot run.
func requireNode(t *testing.T) {
	t.Helper()
	needs.Met(t, "TOOLPROOF_REQUIRE_NODE", "the node adapters",
		needs.Node(filepath.Join(root(t), "validator", "node"), "validator/node"))
}

// newOpener runs the checkout's adapters (their packages installed by scripts/test), as
// TOOLPROOF_ROOT does; the copies the binary carries are tested in carried_test.go.
func newOpener() *registry.Opener {
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return &registry.Opener{Root: checkout, Options: stdio.Options{Stderr: io.Discard, Timeout: 10 * time.Second}}
}

// zoo is one opener for every zoo test, so that the zoo is built once.
var zoo = newOpener()

// open opens name and closes it when the test ends.
func open(t *testing.T, o *registry.Opener, name string) validator.Validator {
	t.Helper()
	v, err := o.Open(name)
	if err != nil {
		t.Fatalf("opening %s: %v", name, err)
	}
	t.Cleanup(func() {
		if err := registry.Close(v); err != nil {
			t.Errorf("closing %s: %v", name, err)
		}
	})
	return v
}

// shrinkSteps bounds the minimising of each finding when a run leaves it open: these runs assert
// which findings a gate has, not how small a case gets (the harness's tests hold that), and each
// step is a call to a process.
const shrinkSteps = 50

// run checks ts against v and verifies that no case was lost.
func run(t *testing.T, v validator.Validator, ts []tool.Tool, opts harness.Options) *report.Report {
	t.Helper()
	if opts.ShrinkSteps == 0 {
		opts.ShrinkSteps = shrinkSteps
	}
	start := time.Now()
	rep, err := harness.Run(ts, v, opts)
	if err != nil {
		t.Fatalf("harness.Run with %s: %v", v.Name(), err)
	}
	checkAccounting(t, rep, len(ts))
	if s, ok := v.(interface{ Stats() stdio.Stats }); ok {
		st := s.Stats()
		if st.Requests != st.Verdicts+st.Crashes+st.Timeouts+st.ProtocolErrors {
			t.Errorf("%s: %d requests, but %d verdicts + %d crashes + %d timeouts + %d protocol errors",
				v.Name(), st.Requests, st.Verdicts, st.Crashes, st.Timeouts, st.ProtocolErrors)
		}
	}
	logReport(t, rep, time.Since(start))
	return rep
}

// checkAccounting: every tool is checked or skipped; every draw gives one valid case and, for
// every class, a case or a not-applicable count; the total is the sum over the classes; every
// case not implementation-defined got a verdict (no crash, timeout or protocol error).
func checkAccounting(t *testing.T, rep *report.Report, tools int) {
	t.Helper()
	skipped := map[string]bool{}
	for _, s := range rep.Skipped {
		skipped[s.Tool] = true
	}
	if rep.Tools+len(skipped) != tools {
		t.Errorf("%s: %d tools checked + %d skipped, want %d", rep.Validator, rep.Tools, len(skipped), tools)
	}
	sum := 0
	for _, st := range rep.Classes {
		sum += st.Cases
	}
	if sum != rep.Cases {
		t.Errorf("%s: report.Cases %d, the classes hold %d", rep.Validator, rep.Cases, sum)
	}
	valid := rep.Classes["valid"]
	if rep.Tools > 0 && (valid == nil || valid.Cases == 0) {
		t.Fatalf("%s: no valid case", rep.Validator)
	}
	for c, st := range rep.Classes {
		if c != "valid" && st.Cases+st.NotApplicable != valid.Cases {
			t.Errorf("%s: class %s: %d cases + %d not applicable, want one per draw (%d)", rep.Validator, c, st.Cases,
				st.NotApplicable, valid.Cases)
		}
		noVerdict := st.ByKind[report.Crash] + st.ByKind[report.Timeout] + st.ByKind[report.ProtocolError]
		if noVerdict > 0 && c != string(mutators.ImplementationDef) {
			t.Errorf("%s: class %s: %d cases without a verdict (crash %d, timeout %d, protocol_error %d)",
				rep.Validator, c, noVerdict,
				st.ByKind[report.Crash], st.ByKind[report.Timeout], st.ByKind[report.ProtocolError])
		}
	}
}

// table collects one line per run, printed at the end of the package's tests with -v.
var (
	tableMu sync.Mutex
	table   []string
)

func logReport(t *testing.T, rep *report.Report, took time.Duration) {
	t.Helper()
	kinds := map[report.Kind]int{}
	for _, st := range rep.Classes {
		for k, n := range st.ByKind {
			kinds[k] += n
		}
	}
	var ks []string
	for _, k := range report.Kinds() {
		if kinds[k] > 0 {
			ks = append(ks, fmt.Sprintf("%s=%d", k, kinds[k]))
		}
	}
	var missed []string
	for _, c := range append([]corpus.Class{"valid"}, mutators.Classes()...) {
		st := rep.Classes[string(c)]
		if st == nil || st.Failed == 0 {
			continue
		}
		missed = append(missed, fmt.Sprintf("%s %d/%d", c, st.Failed, st.Cases))
	}
	line := fmt.Sprintf("%-28s %-7s tools %2d skipped %d cases %5d  %v  failed: %s  (%v)", rep.Validator,
		map[bool]string{true: "PASS", false: "FAIL"}[rep.Passed], rep.Tools, len(rep.Skipped), rep.Cases,
		ks, strings.Join(missed, ", "), took.Round(time.Millisecond))
	t.Log(line)
	for _, s := range rep.Skipped {
		t.Logf("  skipped %s", s)
	}
	tableMu.Lock()
	table = append(table, t.Name()+": "+line)
	tableMu.Unlock()
}

func findings(rep *report.Report, class string, kinds ...report.Kind) []report.Finding {
	var out []report.Finding
	for _, f := range rep.Findings {
		if string(f.Class) != class {
			continue
		}
		for _, k := range kinds {
			if f.Kind == k {
				out = append(out, f)
			}
		}
	}
	return out
}

// ---- node adapters

func TestNodeAdapters(t *testing.T) {
	requireNode(t)
	ts := tools(t, subset...)
	o := newOpener()
	classic := []string{string(mutators.StringifiedType), string(mutators.HallucinatedKey),
		string(mutators.OutOfRangeEnum)}

	t.Run("ajv", func(t *testing.T) {
		t.Parallel() // a node process of its own; the runs share their rapid settings
		rep := run(t, open(t, o, "ajv"), ts, harness.Options{Close: true})
		for _, c := range classic {
			if fs := findings(rep, c, report.Missed); len(fs) > 0 || rep.Classes[c].ByKind[report.Missed] > 0 {
				t.Errorf("ajv missed %d %s cases on closed tools; first: %v",
					rep.Classes[c].ByKind[report.Missed], c, fs)
			}
			if rep.Classes[c].Cases == 0 {
				t.Errorf("no %s case", c)
			}
		}
		if n := rep.Classes["valid"].Failed; n > 0 {
			t.Errorf("ajv failed %d valid cases", n)
		}
	})

	t.Run("ajv-coerce", func(t *testing.T) {
		t.Parallel() // a node process of its own; the runs share their rapid settings
		rep := run(t, open(t, o, "ajv-coerce"), ts, harness.Options{})
		fs := findings(rep, string(mutators.StringifiedType), report.Missed)
		if len(fs) == 0 {
			t.Fatalf("ajv-coerce: no missed stringified_type finding; stringified_type: %+v",
				rep.Classes[string(mutators.StringifiedType)])
		}
		t.Logf("for example: %s\n  args %s\n  %s", fs[0], fs[0].Args, fs[0].Detail)
	})

	t.Run("ajv-strip", func(t *testing.T) {
		t.Parallel() // a node process of its own; the runs share their rapid settings
		rep := run(t, open(t, o, "ajv-strip"), ts, harness.Options{Close: true})
		fs := findings(rep, string(mutators.HallucinatedKey), report.Missed)
		for _, c := range []string{"valid", string(mutators.HallucinatedKey)} {
			fs = append(fs, findings(rep, c, report.SilentChange, report.WrongRepair)...)
		}
		if len(fs) == 0 {
			t.Fatalf("ajv-strip: neither a missed hallucinated_key nor a silent change; hallucinated_key: %+v",
				rep.Classes[string(mutators.HallucinatedKey)])
		}
		t.Logf("for example: %s\n  args %s\n  %s", fs[0], fs[0].Args, fs[0].Detail)

		// Under repair, stripping the invented key gives back the original: no longer a finding.
		rep = run(t, open(t, o, "ajv-strip"), ts, harness.Options{Close: true, Profile: harness.Repair,
			Mutators: []mutators.Mutator{mustMutator(t, mutators.HallucinatedKey)}})
		t.Logf("ajv-strip under repair: hallucinated_key %+v", *rep.Classes[string(mutators.HallucinatedKey)])
	})

	for _, name := range []string{"typebox", "zod"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rep := run(t, open(t, o, name), ts, harness.Options{})
			for _, c := range append([]corpus.Class{"valid"}, mutators.Classes()...) {
				if st := rep.Classes[string(c)]; st != nil && st.Failed > 0 {
					t.Logf("%s lets through / fails %d of %d %s cases: %v", name, st.Failed, st.Cases, c, st.ByKind)
				}
			}
			for _, f := range rep.Findings {
				if f.Blocking {
					t.Logf("  %s", f)
				}
			}
		})
	}
}

func mustMutator(t *testing.T, c corpus.Class) mutators.Mutator {
	t.Helper()
	ms, err := mutators.Select(string(c))
	if err != nil || len(ms) != 1 {
		t.Fatalf("mutator %s: %v", c, err)
	}
	return ms[0]
}

// Every node entry has its adapter file.
func TestNodeEntriesHaveAdapters(t *testing.T) {
	for _, e := range registry.Entries() {
		if e.Kind != "node" {
			continue
		}
		if _, err := os.Stat(filepath.Join(root(t), "validator", "node", "adapters", e.Name+".mjs")); err != nil {
			t.Errorf("entry %s: %v", e.Name, err)
		}
	}
}

func TestEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range registry.Entries() {
		if seen[e.Name] {
			t.Errorf("entry %s listed twice", e.Name)
		}
		seen[e.Name] = true
		switch e.Kind {
		case "builtin", "node", "go-zoo", "python", "seed":
		default:
			t.Errorf("entry %s: kind %q", e.Name, e.Kind)
		}
		if e.Describe == "" {
			t.Errorf("entry %s: no description", e.Name)
		}
	}
	v, err := newOpener().Open("builtin:reference")
	if err != nil || v.Name() != "reference" {
		t.Errorf("builtin:reference: %v, %v", v, err)
	}
}

// ---- the Go zoo

// probe is a tool with a top-level enum, an integer and a closed root object.
var probe = tool.Tool{Name: "probe", Parameters: []byte(`{"type":"object",
	"properties":{"name":{"type":"string","minLength":1},"mode":{"type":"string","enum":["fast","safe"]},"count":{"type":"integer","minimum":0}},
	"required":["name"],"additionalProperties":false}`)}

func verdict(t *testing.T, v validator.Validator, tl tool.Tool, args string) validator.Verdict {
	t.Helper()
	g, err := v.Compile(tl)
	if err != nil {
		t.Fatalf("%s refused %s: %v", v.Name(), tl.Name, err)
	}
	vd := g.Check(context.Background(), []byte(args))
	if vd.Fault != "" {
		t.Fatalf("%s on %s: no verdict: %s %s", v.Name(), args, vd.Fault, vd.Detail)
	}
	return vd
}

func TestZoo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: the registry cannot build the zoo")
	}
	ts := tools(t, "read", "bash", "grep", "firewall_add_rule", "deploy_service")
	reports := map[string]*report.Report{}
	for _, e := range registry.Entries() {
		if e.Kind != "go-zoo" {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			v := open(t, zoo, e.Name)
			if !strings.HasPrefix(v.Name(), e.Name+" ") {
				t.Errorf("the zoo process for %s says it is %q", e.Name, v.Name())
			}
			reports[e.Name] = run(t, v, ts, harness.Options{})
			// Valid arguments of the probe are accepted by every implementation.
			if vd := verdict(t, v, probe, `{"name":"x","mode":"fast","count":3}`); !vd.Valid {
				t.Errorf("%s rejects valid arguments: %v", e.Name, vd.Issues)
			}
			if vd := verdict(t, v, probe, `not json`); vd.Valid {
				t.Errorf("%s accepts text that is not JSON", e.Name)
			}
		})
	}

	t.Run("json-struct is weak", func(t *testing.T) {
		rep := reports["json-struct"]
		if rep == nil {
			t.Skip("json-struct did not run")
		}
		for _, c := range []corpus.Class{mutators.HallucinatedKey, mutators.OutOfRangeEnum} {
			if len(findings(rep, string(c), report.Missed)) == 0 {
				t.Errorf("json-struct: no missed %s finding; %s: %+v", c, c, rep.Classes[string(c)])
			}
		}
		v := open(t, zoo, "json-struct")
		if vd := verdict(t, v, probe, `{"name":"x","verbose":true}`); !vd.Valid {
			t.Errorf("json-struct rejects an unknown key; it was expected to drop it: %v", vd.Issues)
		}
		if vd := verdict(t, v, probe, `{"name":"x","mode":"turbo"}`); !vd.Valid {
			t.Errorf("json-struct rejects a value outside the enum; it was expected to ignore enums: %v", vd.Issues)
		}
	})

	t.Run("json-struct-strict catches invented keys", func(t *testing.T) {
		rep := reports["json-struct-strict"]
		if rep == nil {
			t.Skip("json-struct-strict did not run")
		}
		if st := rep.Classes[string(mutators.HallucinatedKey)]; st == nil || st.Cases-st.ByKind[report.Missed] == 0 {
			t.Errorf("json-struct-strict caught no hallucinated_key case: %+v", st)
		}
		v := open(t, zoo, "json-struct-strict")
		vd := verdict(t, v, probe, `{"name":"x","verbose":true}`)
		if vd.Valid {
			t.Errorf("json-struct-strict accepts an invented key at the top level")
		}
		// encoding/json matches keys case-insensitively: a near-miss key is not unknown to it.
		if vd := verdict(t, v, probe, `{"Name":"x"}`); vd.Valid {
			t.Logf("json-struct-strict accepts \"Name\" for \"name\" (encoding/json matches keys case-insensitively)")
		}
	})
}

// ---- opener errors

func TestOpenErrors(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		opener *registry.Opener
		spec   string
		want   []string // all in the error
	}{
		{newOpener(), "nope", []string{`unknown validator "nope"`, "toolproof validators"}},
		{newOpener(), "builtin:nope", []string{`unknown validator "builtin:nope"`}},
		{newOpener(), "exec:", []string{"exec:", "empty command"}},
		{newOpener(), "exec:   ", []string{"empty command"}},
		{newOpener(), "exec:'unterminated", []string{"unterminated"}},
		{newOpener(), "exec:" + filepath.Join(empty, "no-such-validator"), []string{"no-such-validator"}},
		{&registry.Opener{Root: empty, Options: stdio.Options{Stderr: io.Discard}}, "ajv", []string{"ajv"}},
		{&registry.Opener{Root: empty, Options: stdio.Options{Stderr: io.Discard}}, "json-struct",
			[]string{"validator json-struct is in the Go validator zoo: building the zoo in", empty}},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			v, err := tc.opener.Open(tc.spec)
			if err == nil {
				registry.Close(v)
				t.Fatalf("Open(%q) gave %s, want an error", tc.spec, v.Name())
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Open(%q): %q does not say %q", tc.spec, err, w)
				}
			}
		})
	}
	// A program that does not speak toolproof/1.
	if sh, err := exec.LookPath("sh"); err == nil {
		_, err := newOpener().Open("exec:" + sh + " -c 'echo hello; exit 3'")
		if err == nil || !strings.Contains(err.Error(), "hello") && !strings.Contains(err.Error(), "toolproof/1") {
			t.Errorf("a program that does not speak toolproof/1: %v", err)
		}
	}
}

// TestZZTable prints the table of every run above (go test -v).
func TestZZTable(t *testing.T) {
	tableMu.Lock()
	defer tableMu.Unlock()
	lines := append([]string(nil), table...)
	sort.Strings(lines)
	for _, l := range lines {
		t.Log(l)
	}
}
