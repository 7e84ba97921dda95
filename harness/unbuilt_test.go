package harness_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// A tool whose required property has a pattern the generator cannot construct a string for is
// skipped with that reason, naming the pattern and its place, never as an unsatisfiable schema;
// with a matching example in the schema it is checked.
func TestSkippedForAPatternBeyondTheGenerator(t *testing.T) {
	for _, tc := range []struct{ pattern, want string }{
		{`^x{1001}$`, `pattern "^x{1001}$" at /properties/code/pattern: the generator cannot construct a string ` +
			`for it`},
		{`^(?=[a-z]{3}$)(?=.*(?<!\d)x)\w+$`,
			`the generator could not construct a string for pattern "^(?=[a-z]{3}$)(?=.*(?<!\\d)x)\\w+$" at ` +
				`/properties/code/pattern`},
	} {
		pj, _ := json.Marshal(tc.pattern)
		schema := func(extra string) json.RawMessage {
			return json.RawMessage(`{"type":"object","required":["code"],"properties":{"code":{"type":"string",` +
				`"pattern":` +
				string(pj) + extra + `}}}`)
		}
		rep, err := harness.Run([]tool.Tool{{Name: "t", Parameters: schema("")}}, oracle.Reference{},
			harness.Options{Checks: 5, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, tc.want) ||
			strings.Contains(rep.Skipped[0].Reason, "unsatisfiable") ||
			!strings.Contains(rep.Skipped[0].Reason, `"examples"`) {
			t.Errorf("%s: skipped %+v, want the reason to say %q and how to give an example",
				tc.pattern, rep.Skipped, tc.want)
		}
		example, _ := json.Marshal(strings.Repeat("x", 1001))
		if !strings.HasPrefix(tc.pattern, "^x") {
			example = []byte(`"abx"`)
		}
		rep, err = harness.Run([]tool.Tool{{Name: "t", Parameters: schema(`,"examples":[` + string(example) + `]`)}},
			oracle.Reference{}, harness.Options{Checks: 5, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Skipped) != 0 || rep.Classes["valid"] == nil || rep.Classes["valid"].Cases == 0 || !rep.Passed {
			t.Errorf("%s with an example: skipped %+v, findings %v", tc.pattern, rep.Skipped, rep.Findings)
		}
	}
}

// Generate (toolproof gen) says the same of a tool whose draws all failed on such a pattern.
func TestGenerateSaysWhichPatternIsBeyondTheGenerator(t *testing.T) {
	hard := tool.Tool{Name: "t",
		Parameters: json.RawMessage(`{"type":"object","required":["code"],"properties":{"code":` +
			`{"type":"string","pattern":"^(?=[a-z]{3}$)(?=.*(?<!\\d)x)\\w+$"}}}`)}
	_, skipped := harness.Generate([]tool.Tool{hard}, harness.GenOptions{N: 5, Valid: true})
	if len(skipped) != 1 || !strings.Contains(skipped[0].Reason, `could not construct a string for pattern`) ||
		!strings.Contains(skipped[0].Reason, "/properties/code/pattern") {
		t.Errorf("skipped %+v", skipped)
	}
}
