package harness_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// Two faults of one tool, class and kind at two places of its schema are two findings, each
// with its place; the others of the class and kind keep their first case and say so; and the
// same seed gives the same findings.
func TestOneFindingPerPlace(t *testing.T) {
	tl := tool.Tool{Name: "plan", Parameters: json.RawMessage(`{"type":"object","properties":{
		"days":{"type":"integer","maximum":30},"urgent":{"type":"boolean"}},
		"required":["days","urgent"],"additionalProperties":false}`)}
	acceptAll := validator.Func("accept-all", func(tool.Tool) (func([]byte) (any, error), error) {
		return func([]byte) (any, error) { return nil, nil }, nil
	})
	only, err := mutators.Select("stringified_type")
	if err != nil {
		t.Fatal(err)
	}
	opts := harness.Options{Checks: 30, Seed: 3, Mutators: only}
	rep, err := harness.Run([]tool.Tool{tl}, acceptAll, opts)
	if err != nil {
		t.Fatal(err)
	}
	places, shrunk := map[string]bool{}, 0
	for _, f := range rep.Findings {
		if f.Class == "stringified_type" && f.Kind == "missed" {
			places[f.Place] = true
			if f.Shrunk {
				shrunk++
			}
		}
	}
	if !places["/properties/days/type"] || !places["/properties/urgent/type"] || shrunk != 1 {
		t.Errorf("stringified_type missed at %v, %d shrunk; want /properties/days/type and /properties/urgent/type, "+
			"one shrunk",
			places, shrunk)
	}
	again, err := harness.Run([]tool.Tool{tl}, acceptAll, opts)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rep.Findings, again.Findings); d != "" {
		t.Errorf("the same seed gave other findings (-first +second):\n%s", d)
	}
}
