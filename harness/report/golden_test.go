package report

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenReport is a hand-made report with one of everything a report can show: blocking and
// non-blocking findings, a JSON diff, issues, implementation-defined and unclear counts with
// samples, a skipped tool, a stale case, a note and a seed. Nothing in it depends on timing.
func goldenReport() *Report {
	st := func(cases, failed, na int, byKind map[Kind]int) *ClassStats {
		if byKind == nil {
			byKind = map[Kind]int{}
		}
		return &ClassStats{Cases: cases, Failed: failed, NotApplicable: na, ByKind: byKind}
	}
	impl := st(20, 0, 0, nil)
	impl.Either, impl.EitherAccepted = 20, 3
	malformed := st(20, 0, 0, nil)
	malformed.Unclear = 2
	malformed.Samples = []string{`read {"path":"a",}: the adapter answered "maybe"`,
		`grep {'pattern': 'x'}: no verdict field`}
	r := &Report{
		Validator: "coercing", Profile: "strict", ClassOrder: testClassOrder, Tools: 2, Seed: 42,
		Classes: map[string]*ClassStats{
			"valid":                  st(20, 1, 0, map[Kind]int{SilentChange: 1}),
			"stringified_type":       st(12, 5, 8, map[Kind]int{Missed: 5}),
			"hallucinated_key":       st(20, 0, 0, map[Kind]int{ImpreciseLocation: 4}),
			"malformed_json":         malformed,
			"implementation_defined": impl,
		},
		Checked: map[string][]string{
			"valid":                  {"grep", "read"},
			"stringified_type":       {"read"},
			"hallucinated_key":       {"grep", "read"},
			"malformed_json":         {"grep", "read"},
			"implementation_defined": {"grep", "read"},
		},
		Findings: []Finding{
			{Case: corpus.Case{Tool: "grep", Class: "hallucinated_key", Expect: "reject", Path: "/Pattern",
				Keyword: "additionalProperties", Reason: `a key "Pattern" the schema does not allow`,
				Args: []byte(`{"Pattern":"x","pattern":"x"}`), ID: "0123456789abcdef0123"}, Kind: ImpreciseLocation,
				Got: "rejected", Issues: []Issue{{Path: "", Keyword: "additionalProperties",
					Message: "unknown key"}},
				Detail: `no issue at "/Pattern", above it or inside it; issues: (root): unknown key`, Count: 4},
			{Case: corpus.Case{Tool: "read", Class: "stringified_type", Expect: "reject", Path: "/limit",
				Scope: "/limit", Also: []corpus.Place{{Path: "/offset",
					Scope: ""}}, Keyword: "type", Reason: `the number at /limit written as the string "20"`,
				Args: []byte(`{"limit":"20","path":"a"}`), Original: []byte(`{"limit":20,"path":"a"}`),
				ID: "fedcba9876543210fedc", SchemaHash: "5f1e2d3c4b5a69788796"}, Kind: Missed, Got: "accepted",
				Detail: `passed on: {"limit":20,"path":"a"}`, Count: 5, Blocking: true, Shrunk: true,
				Location: Source{File: "tools/read.json", Line: 7, Column: 9, Schema: "/properties/limit/type"}},
			{Case: corpus.Case{Tool: "read", Class: "valid", Expect: "accept",
				Args: []byte("{\"path\":\"a\\u0000b\",\n\"tags\":[\"x\"]}"), ID: "00000000000000000001"},
				Kind: SilentChange, Got: "accepted", Count: 1, Blocking: true,
				Detail: "value passed on (-sent +passed on):\n" +
					"  {\n+   \"limit\": 2000,\n    \"path\": \"a\\u0000b\",\n    \"tags\": [\n      \"x\"\n    ]\n " +
					" }\n"},
		},
		Skipped: []Skipped{{Tool: "deploy", Source: "tools.json#2",
			Reason: "unusable schema: remote $ref https://example.com/s.json"}},
		Stale: []string{"abcdefabcdefabcdefab: saved as invalid, but the schema now accepts it"},
		Notes: []string{"read: rapid: a note"},
	}
	for _, c := range r.Classes {
		r.Cases += c.Cases
	}
	return r
}

// goldenPassing is a second, passing validator for the comparisons.
func goldenPassing() *Report {
	r := &Report{Validator: "reference", Profile: "strict", ClassOrder: testClassOrder, Tools: 2,
		Passed: true, Seed: 42,
		Classes: map[string]*ClassStats{}, Checked: map[string][]string{}, Findings: []Finding{}, Skipped: []Skipped{}}
	for _, c := range []string{"valid", "stringified_type", "hallucinated_key", "malformed_json",
		"implementation_defined"} {
		r.Classes[c] = &ClassStats{Cases: 20, ByKind: map[Kind]int{}}
		r.Checked[c] = []string{"grep", "read"}
		r.Cases += 20
	}
	r.Classes["implementation_defined"].Either = 20
	return r
}

// TestGolden pins every report format byte for byte: go test ./harness/report -run Golden -update
// rewrites the files after a deliberate change.
func TestGolden(t *testing.T) {
	one := goldenReport()
	cmpr := &Comparison{Reports: []*Report{goldenPassing(), goldenReport()}}
	for _, format := range []string{"text", "json", "junit", "markdown"} {
		ext := map[string]string{"text": "txt", "json": "json", "junit": "xml", "markdown": "md"}[format]
		for _, c := range []struct {
			name  string
			write func(*bytes.Buffer) error
		}{
			{"report." + ext, func(b *bytes.Buffer) error { return one.Write(b, format) }},
			{"comparison." + ext, func(b *bytes.Buffer) error { return cmpr.Write(b, format) }},
		} {
			t.Run(c.name, func(t *testing.T) {
				var got bytes.Buffer
				if err := c.write(&got); err != nil {
					t.Fatal(err)
				}
				checkGolden(t, c.name, got.Bytes())
			})
		}
	}
}

// checkGolden compares got with testdata/golden/name.golden, or writes it there under -update.
// The suffix marks the files as expected output, data to compare, whatever format they hold.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./harness/report -run Golden -update writes it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s changed (-want +got); go test ./harness/report -run Golden -update accepts the change:\n%s",
			path, d)
	}
}

// The JUnit counts are the text report's: tests = checks + skipped tools, failures = failed
// checks, skipped = skipped tools; and text the XML cannot hold does not break it.
func TestJUnitCountsMatchTheText(t *testing.T) {
	r := goldenReport()
	r.Findings[1].Detail += "\x00\x1b]]>" // a NUL, an escape and the end of a CDATA section
	var x, txt bytes.Buffer
	if err := r.Write(&x, "junit"); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(&txt, "text"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Cases []struct {
				Failure *struct {
					Text string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(x.Bytes(), &doc); err != nil {
		t.Fatalf("the JUnit XML does not parse: %v\n%s", err, x.String())
	}
	s := summarize(r)
	total, failed := s.total, s.failed
	if doc.Tests != total+len(r.Skipped) || doc.Failures != failed || doc.Skipped != len(r.Skipped) {
		t.Errorf("junit tests=%d failures=%d skipped=%d; the text says %d checks, %d failed, %d skipped", doc.Tests,
			doc.Failures, doc.Skipped, total, failed, len(r.Skipped))
	}
	cases, failures := 0, 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			cases++
			if c.Failure != nil {
				failures++
			}
		}
	}
	if cases != doc.Tests || failures != doc.Failures {
		t.Errorf("junit: %d testcase elements and %d failures, the attributes say %d and %d", cases, failures,
			doc.Tests, doc.Failures)
	}
	line := fmt.Sprintf("checks (a tool in a class): %d, %d failed;", total, failed)
	if !strings.Contains(txt.String(), line) {
		t.Errorf("the text report lacks %q:\n%s", line, txt.String())
	}
	if !strings.Contains(x.String(), "\uFFFD\uFFFD]]") {
		t.Errorf("the control characters were not replaced:\n%s", x.String())
	}
}

// testClassOrder is the order the harness gives the reports it builds (harness.ClassOrder).
var testClassOrder = []string{"valid", "stringified_type", "flattened_array", "hallucinated_key", "out_of_range_enum",
	"missing_required", "null_value", "wrong_type", "json_in_string", "wrapped_scalar",
	"wrapper_nesting", "root_not_object",
	"malformed_json", "implementation_defined"}

// goldenUnchecked is a run that checked nothing: both its tools were skipped.
func goldenUnchecked() *Report {
	r := &Report{Validator: "reference", Profile: "strict", ClassOrder: testClassOrder, Seed: 42,
		Classes: map[string]*ClassStats{}, Checked: map[string][]string{}, Findings: []Finding{},
		Skipped: []Skipped{
			{Tool: "login", Source: "tools.json#0", Reason: "unusable schema: the root is not an object schema"},
			{Source: "tools.json#1", Reason: "unusable schema: no name"},
		}}
	r.Finish()
	return r
}

// TestGoldenUnchecked pins the verdict of a run that checked nothing in every format: not
// passed, the skipped tools named and counted on the verdict line.
func TestGoldenUnchecked(t *testing.T) {
	r := goldenUnchecked()
	if r.Passed {
		t.Fatal("a run that checked no tool passed")
	}
	if v := r.Outcome(); v.Status != "UNCHECKED" ||
		v.String() != "UNCHECKED: 0 tools checked, 2 skipped (login, (unnamed) tools.json#1)" {
		t.Errorf("verdict %q", v)
	}
	for _, format := range []string{"text", "json", "junit", "markdown", "html", "sarif", "badge"} {
		ext := map[string]string{"text": "txt", "json": "json", "junit": "xml", "markdown": "md", "html": "html",
			"sarif": "sarif", "badge": "badge.json"}[format]
		t.Run(format, func(t *testing.T) {
			var got bytes.Buffer
			if err := r.WriteFormat(&got, format, RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "unchecked."+ext, got.Bytes())
		})
	}
}

// A shard may check no tool and still pass: Merge judges the whole run.
func TestEmptyShardIsNotJudged(t *testing.T) {
	r := &Report{Validator: "reference", Classes: map[string]*ClassStats{}, Shard: &ShardInfo{}}
	r.Recount()
	if !r.Passed {
		t.Error("an empty shard failed")
	}
	r.Shard = nil
	r.Recount()
	if r.Passed {
		t.Error("a run that checked no tool passed")
	}
}

// A comparison gives each validator's verdict: one that checked nothing reads UNCHECKED, and
// the comparison does not pass.
func TestComparisonVerdicts(t *testing.T) {
	cmpr := &Comparison{Reports: []*Report{goldenPassing(), goldenUnchecked()}}
	for _, format := range []string{"text", "markdown"} {
		var b bytes.Buffer
		if err := cmpr.Write(&b, format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "PASS") || !strings.Contains(b.String(), "UNCHECKED") {
			t.Errorf("%s: the verdicts are not shown:\n%s", format, b.String())
		}
	}
	if NewDocument(cmpr.Reports...).Passed {
		t.Error("a comparison with a validator that checked nothing passed")
	}
}

// TestGoldenInterrupted pins an interrupted run in every format: INTERRUPTED and its reason on
// the verdict line, a failed JUnit case toolproof/verdict, and a SARIF invocation that did not
// succeed; a comparison with one interrupted run is INTERRUPTED as a whole.
func TestGoldenInterrupted(t *testing.T) {
	r := goldenReport()
	r.Interrupted = "the MCP server answered 401 Unauthorized"
	r.Finish()
	if v := r.Outcome(); v.Status != "INTERRUPTED" || v.Reason != r.Interrupted {
		t.Fatalf("outcome %+v", v)
	}
	for _, format := range []string{"text", "junit", "markdown", "html", "sarif"} {
		ext := map[string]string{"text": "txt", "junit": "xml", "markdown": "md", "html": "html",
			"sarif": "sarif"}[format]
		t.Run(format, func(t *testing.T) {
			var got bytes.Buffer
			if err := r.WriteFormat(&got, format, RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(got.Bytes(), []byte("INTERRUPTED")) &&
				!bytes.Contains(got.Bytes(), []byte("interrupted")) {
				t.Errorf("%s does not say the run was interrupted:\n%s", format, got.Bytes())
			}
			checkGolden(t, "interrupted."+ext, got.Bytes())
		})
	}
	if got := worst("PASS", "INTERRUPTED", "FAIL"); got != "INTERRUPTED" {
		t.Errorf("worst(PASS, INTERRUPTED, FAIL) = %s", got)
	}
}
