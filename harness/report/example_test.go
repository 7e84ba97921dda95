package report_test

import (
	"os"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/report"
)

// A report renders in every format of report.Formats; here the Markdown a CI job posts on a pull
// request, for a gate that let a stringified number through.
func ExampleReport_Write() {
	r := &report.Report{Validator: "coercing", Profile: "strict", Tools: 1, Seed: 7,
		ClassOrder: []string{"valid", "stringified_type"}, // the harness's order (harness.ClassOrder)
		Classes: map[string]*report.ClassStats{
			"valid":            {Cases: 10, ByKind: map[report.Kind]int{}},
			"stringified_type": {Cases: 10, Failed: 1, ByKind: map[report.Kind]int{report.Missed: 1}},
		},
		Checked: map[string][]string{"valid": {"read"}, "stringified_type": {"read"}},
		Findings: []report.Finding{{Case: corpus.Case{Tool: "read", Class: "stringified_type", Expect: corpus.Reject,
			Path: "/limit", Args: []byte(`{"limit":"20","path":"a"}`), ID: "fedcba9876543210fedc"},
			Kind: report.Missed, Got: "accepted", Count: 1, Blocking: true, Shrunk: true,
			// Where the tool file writes the keyword the case breaks (the harness finds it as it judges the case).
			Location: report.Source{File: "tools.json", Line: 7, Column: 9, Schema: "/properties/limit/type"}}},
	}
	r.Finish()
	if err := r.Write(os.Stdout, "markdown"); err != nil {
		panic(err)
	}
	// Output:
	// ### toolproof: coercing failed (1 tools, 0 skipped, 20 cases, seed 7)
	//
	// Profile strict; checks (a tool in a class): 2, 1 failed; findings: 1; skipped tools: 0.
	//
	// | class | cases | ok | failed | n/a | missed |
	// |---|---:|---:|---:|---:|---:|
	// | valid | 10 | 10 | 0 | 0 | 0 |
	// | stringified_type | 10 | 9 | 1 | 0 | 1 |
	//
	// | tool | class | kind | args | path | at | blocking | id |
	// |---|---|---|---|---|---|---|---|
	// | read | stringified_type | missed | ` {"limit":"20","path":"a"} ` | /limit | tools.json:7:9  schema: /properties/limit/type | yes | fedcba9876543210fedc |
}
