package baseline_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/baseline"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// documentOf is a baseline of one validator with one blocking finding of the given kind and
// expectation.
func documentOf(t *testing.T, name string, kind report.Kind, expect corpus.Expect) []byte {
	t.Helper()
	c := corpus.Case{Tool: "read", Class: "stringified_type", Expect: expect, Args: []byte(`{"limit":"20"}`)}
	c.ID = corpus.ComputeID(c.Tool, c.Class, c.Expect, c.Args)
	f := report.Finding{Case: c, Kind: kind, Blocking: true, Count: 1}
	b, err := json.Marshal(report.NewDocument(&report.Report{Validator: name, Findings: []report.Finding{f}}))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gate(name string) validator.Validator {
	return validator.Func(name, func(tool.Tool) (func([]byte) (any, error), error) {
		return func([]byte) (any, error) { return nil, nil }, nil
	})
}

// A baseline of another validator is not used: its findings would read as known defects of a gate
// that never had them. Another version of the same validator is used, with a note.
func TestBaselineOfAnotherValidator(t *testing.T) {
	b, err := baseline.Parse(documentOf(t, "ajv 8.20.0", report.Missed, corpus.Reject), "base.json")
	if err != nil {
		t.Fatal(err)
	}
	tools := []tool.Tool{{Name: "read", Parameters: json.RawMessage(`{"type":"object"}`)}}
	r, err := b.Replay(tools, gate("zod 4.6.7"), 1, harness.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Known)+len(r.Fixed) != 0 || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "not used") {
		t.Errorf("a baseline of ajv replayed for zod: known %d, fixed %d, notes %q",
			len(r.Known), len(r.Fixed), r.Notes)
	}
	r, err = b.Replay(tools, gate("ajv 8.21.0"), 1, harness.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Known)+len(r.Fixed) != 1 || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "used for ajv 8.21.0") {
		t.Errorf("a baseline of ajv 8.20.0 for ajv 8.21.0: known %d, fixed %d, notes %q",
			len(r.Known), len(r.Fixed), r.Notes)
	}
}

// A baseline naming a kind or an expectation toolproof does not report is refused, naming the
// file, the report and the finding.
func TestBaselineRefusesUnknownValues(t *testing.T) {
	for _, tc := range []struct {
		kind   report.Kind
		expect corpus.Expect
		want   string
	}{
		{"missd", corpus.Reject, `findings[0] (tool "read"): kind "missd" is not one toolproof reports`},
		{report.Missed, "rejected", `findings[0] (tool "read"): expect is "rejected"`},
	} {
		_, err := baseline.Parse(documentOf(t, "ajv 8.20.0", tc.kind, tc.expect), "base.json")
		if err == nil ||
			!strings.Contains(err.Error(), "baseline base.json: reports[0] (validator ajv 8.20.0): "+tc.want) {
			t.Errorf("kind %q expect %q: got %v, want an error with %q", tc.kind, tc.expect, err, tc.want)
		}
	}
	if _, err := baseline.Parse(documentOf(t, "ajv 8.20.0", report.Missed, corpus.Reject), "base.json"); err != nil {
		t.Errorf("a well-formed baseline refused: %v", err)
	}
}
