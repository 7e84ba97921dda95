package harness_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// Tool arguments are objects: the reference, a correct gate, gets no finding on tools whose
// parameters are {}, true, a description alone, or admit other values too; a tool that
// admits no object, or no value (a loop of $ref), is skipped and says why.
func TestReferenceHoldsOnAnyParameters(t *testing.T) {
	rep := runWithoutFinding(t, oracle.Reference{}, 20, nil, "../testdata/hostile/params.json")
	want := map[string]string{
		"array_root":  "admits no JSON object",
		"scalar_root": "admits no JSON object",
		"ref_loop":    "loop of $ref",
	}
	for _, s := range rep.Skipped {
		if w, ok := want[s.Tool]; !ok || !strings.Contains(s.Reason, w) {
			t.Errorf("skipped %s: %s (want %q)", s.Tool, s.Reason, w)
		}
		delete(want, s.Tool)
	}
	for name, w := range want {
		t.Errorf("%s not skipped (want %q)", name, w)
	}
	if rep.Tools != 6 {
		t.Errorf("%d tools checked, want 6", rep.Tools)
	}
}

// gen says what it dropped: a tool whose draws all fail is listed with its reason, not left
// out without a word.
func TestGenerateSaysWhatItDropped(t *testing.T) {
	hard := tool.Tool{Name: "hard",
		Parameters: json.RawMessage(`{"type":"object","required":["s"],"properties":{"s":{"type":"string",` +
			`"pattern":"^a$","not":{"const":"a"}}}}`)}
	ok := tool.Tool{Name: "ok", Parameters: json.RawMessage(`{"type":"object"}`)}
	cs, skipped := harness.Generate([]tool.Tool{hard, ok}, harness.GenOptions{N: 3, Seed: 1, Valid: true})
	if len(cs) != 3 || len(skipped) != 1 || skipped[0].Tool != "hard" ||
		!strings.Contains(skipped[0].Reason, "no valid value in 3 draws") {
		t.Fatalf("%d cases, skipped %v", len(cs), skipped)
	}
}
