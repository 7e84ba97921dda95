package baseline_test

import (
	"fmt"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/baseline"
	"github.com/toolproof/toolproof/harness/report"
)

// Trim keeps of a run's JSON report what a baseline needs: its blocking findings, one per tool,
// class and kind, with their cases.
func ExampleTrim() {
	found := report.Finding{Case: corpus.Case{Tool: "read", Class: "stringified_type", Expect: corpus.Reject,
		Args: []byte(`{"limit":"20","path":"a"}`), ID: "fedcba9876543210fedc"}, Kind: report.Missed,
		Blocking: true, Count: 5}
	note := report.Finding{Case: corpus.Case{Tool: "grep", Class: "hallucinated_key", Expect: corpus.Reject,
		Args: []byte(`{"Pattern":"x","pattern":"x"}`), ID: "0123456789abcdef0123"}, Kind: report.ImpreciseLocation}
	run := report.NewDocument(&report.Report{Validator: "my-gate", Findings: []report.Finding{found, note}})
	for _, r := range baseline.Trim(run).Reports {
		for _, f := range r.Findings {
			fmt.Println(r.Validator, f.Tool, f.Class, f.Kind, string(f.Args))
		}
	}
	// Output:
	// my-gate read stringified_type missed {"limit":"20","path":"a"}
}
