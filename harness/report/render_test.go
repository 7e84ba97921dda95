package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// goldenBaseline is goldenReport judged against a baseline: its missed finding is known, and one
// entry no longer reproduces.
func goldenBaseline() *Report {
	r := goldenReport()
	r.Findings[1].Known = true
	fixed := r.Findings[2]
	fixed.Tool, fixed.ID, fixed.Kind = "grep", "99999999999999999999", Missed
	r.Baseline = &BaselineResult{File: ".toolproof/baseline.json", Known: []Finding{r.Findings[1]},
		Fixed: []Finding{fixed}}
	r.Sources = map[string]Source{"read": {File: "tools/read.json", Line: 2, Column: 3},
		"grep": {Served: "mcp:node server.js"}}
	r.Recount()
	return r
}

// TestGoldenRendered pins the HTML, SARIF and badge formats, and the text and Markdown reports of
// a run with a baseline, byte for byte (go test ./harness -run Golden -update rewrites them).
func TestGoldenRendered(t *testing.T) {
	one, base := goldenReport(), goldenBaseline()
	one.Sources = map[string]Source{"read": {File: "tools/read.json", Line: 2, Column: 3}}
	cmpr := &Comparison{Reports: []*Report{goldenPassing(), goldenReport()}}
	opts := RenderOptions{HTML: HTMLOptions{Command: "toolproof run --tools tools --validator exec:./gate --seed 42"},
		SARIF: SARIFOptions{Version: "v1.2.3"}}
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"report.html", func(b *bytes.Buffer) error { return one.WriteFormat(b, "html", opts) }},
		{"comparison.html", func(b *bytes.Buffer) error { return cmpr.WriteFormat(b, "html", opts) }},
		{"baseline.html", func(b *bytes.Buffer) error { return base.WriteFormat(b, "html", opts) }},
		{"report.sarif", func(b *bytes.Buffer) error { return one.WriteFormat(b, "sarif", opts) }},
		{"comparison.sarif", func(b *bytes.Buffer) error { return cmpr.WriteFormat(b, "sarif", opts) }},
		{"baseline.sarif", func(b *bytes.Buffer) error { return base.WriteFormat(b, "sarif", opts) }},
		{"report.badge.json", func(b *bytes.Buffer) error { return one.WriteFormat(b, "badge", opts) }},
		{"comparison.badge.json", func(b *bytes.Buffer) error { return cmpr.WriteFormat(b, "badge", opts) }},
		{"baseline.txt", func(b *bytes.Buffer) error { return base.Write(b, "text") }},
		{"baseline.md", func(b *bytes.Buffer) error { return base.Write(b, "markdown") }},
		{"baseline.xml", func(b *bytes.Buffer) error { return base.Write(b, "junit") }},
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

// sarifSchema compiles the OASIS SARIF 2.1.0 schema kept in testdata/sarif.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	s, err := jsonschema.NewCompiler().Compile(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every SARIF report is valid against the SARIF 2.1.0 schema and has one result per blocking
// finding, each located: in the tool file where the report knows it, else by the tool's name.
func TestSARIFIsValid(t *testing.T) {
	schema := sarifSchema(t)
	base := goldenBaseline()
	for _, c := range []struct {
		name    string
		reports []*Report
	}{
		{"one", []*Report{goldenReport()}},
		{"baseline", []*Report{base}},
		{"comparison", []*Report{goldenPassing(), goldenReport(), base}},
		{"passing", []*Report{goldenPassing()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := writeSARIF(&buf, c.reports, SARIFOptions{}); err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, buf.String())
			}
			var log sarifLog
			if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range c.reports {
				for _, f := range r.Findings {
					if f.Blocking {
						which := "Minimal case"
						if !f.Shrunk {
							which = "Case"
						}
						want = append(want, r.Validator+": "+f.String()+". "+which+": "+showArgs(string(f.Args))+
							" (id "+f.ID+")"+unshrunkText(f))
					}
				}
			}
			var got []string
			for _, res := range log.Runs[0].Results {
				got = append(got, res.Message.Text)
				if len(res.Locations) != 1 || len(res.Locations[0].LogicalLocations) != 1 ||
					res.Locations[0].LogicalLocations[0].Name == "" {
					t.Errorf("result %q is not located by its tool", res.Message.Text)
				}
				rule := log.Runs[0].Tool.Driver.Rules[res.RuleIndex]
				if rule.ID != res.RuleID ||
					!strings.Contains(res.Message.Text, strings.Replace(res.RuleID, "/", " ", 1)) {
					t.Errorf("result %q: rule %s (index %d, %s)", res.Message.Text, res.RuleID, res.RuleIndex, rule.ID)
				}
				// GitHub's rules (GH2012 and the like): a help in text and Markdown, a name that is not the id.
				if rule.Name == "" || rule.Name == rule.ID || rule.Help.Text == "" || rule.Help.Markdown == "" {
					t.Errorf("rule %s: name %q, help %+v", rule.ID, rule.Name, rule.Help)
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("results (-blocking findings +results):\n%s", d)
			}
		})
	}
	base.Findings[0].Blocking = true // grep's, on the tools an MCP server lists
	var buf bytes.Buffer
	if err := writeSARIF(&buf, []*Report{base}, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"uri": "tools/read.json"`) ||
		!strings.Contains(buf.String(), `"startLine": 2`) ||
		!strings.Contains(buf.String(), `"fullyQualifiedName": "mcp:node server.js#grep"`) {
		t.Errorf("the locations of the sources are missing:\n%s", buf.String())
	}
}

// SARIFOptions.File locates the results whose tool has no tool file (code scanning refuses a
// result without a file), and only those.
func TestSARIFFileForToolsWithoutOne(t *testing.T) {
	base := goldenBaseline()
	base.Findings[0].Blocking = true // grep's, on the tools an MCP server lists: no tool file
	var without, with bytes.Buffer
	if err := writeSARIF(&without, []*Report{base}, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := writeSARIF(&with, []*Report{base}, SARIFOptions{File: "src/server.ts"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(without.String(), "src/server.ts") {
		t.Fatalf("a file no option named:\n%s", without.String())
	}
	var log sarifLog
	if err := json.Unmarshal(with.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	files := map[string]int{}
	for _, res := range log.Runs[0].Results {
		if p := res.Locations[0].PhysicalLocation; p == nil {
			t.Errorf("result %q has no file", res.Message.Text)
		} else {
			files[p.ArtifactLocation.URI]++
		}
	}
	if files["src/server.ts"] == 0 || files["tools/read.json"] == 0 {
		t.Errorf("want results in both the tool file and the fallback file, got %v", files)
	}
}

// The badge counts the classes with cases and those without a finding that fails the run.
func TestBadge(t *testing.T) {
	for _, c := range []struct {
		name    string
		reports []*Report
		want    Badge
	}{
		// valid (silent_change) and stringified_type (missed) fail; hallucinated_key's finding does not block.
		{"one", []*Report{goldenReport()}, Badge{1, "toolproof", "3/5 classes hold", "yellow"}},
		{"passing", []*Report{goldenPassing()}, Badge{1, "toolproof", "5/5 classes hold", "brightgreen"}},
		{"comparison", []*Report{goldenPassing(), goldenReport()}, Badge{1, "toolproof", "3/5 classes hold", "yellow"}},
		// the missed finding is known; the fixed entry (grep, valid... as missed) fails its class.
		{"baseline", []*Report{goldenBaseline()}, Badge{1, "toolproof", "4/5 classes hold", "yellow"}},
	} {
		if got := badge(c.reports); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	none := goldenPassing()
	none.Classes = map[string]*ClassStats{"valid": {Cases: 3, ByKind: map[Kind]int{}}}
	none.Findings = []Finding{{Kind: FalseReject, Blocking: true}}
	none.Findings[0].Class = "valid"
	if got := badge([]*Report{none}); got.Color != "red" || got.Message != "0/1 classes hold" {
		t.Errorf("a report whose only class fails: %+v", got)
	}
}

func TestSARIFRuleName(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"stringified_type", "missed"}:   "StringifiedTypeMissed",
		{"valid", "false_reject"}:        "ValidFalseReject",
		{"out_of_range_enum", "timeout"}: "OutOfRangeEnumTimeout",
	} {
		if got := ruleName(in[0], in[1]); got != want {
			t.Errorf("ruleName(%q, %q) = %q, want %q", in[0], in[1], got, want)
		}
	}
}

// TestJUnitTime: the run's wall time is the testsuites element's time attribute, the only
// difference from the report written without it.
func TestJUnitTime(t *testing.T) {
	r := goldenReport()
	var plain, timed bytes.Buffer
	if err := r.Write(&plain, "junit"); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFormat(&timed, "junit",
		RenderOptions{JUnit: JUnitOptions{Elapsed: 1500 * time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "time=") {
		t.Errorf("a time attribute without Elapsed:\n%s", plain.String())
	}
	got := timed.String()
	normal := regexp.MustCompile(` time="1\.500"`).ReplaceAllString(got, "")
	if !strings.Contains(got, ` time="1.500">`) || normal != plain.String() {
		t.Errorf("JUnit with Elapsed 1.5s:\n%s\nwithout:\n%s", got, plain.String())
	}
}
