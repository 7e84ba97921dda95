package oracle_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// fan is a schema whose $refs fan out: each of its levels is an allOf and an anyOf of two refs
// to the next, so a value is checked against about 2^levels subschemas in place.
func fan(levels int) json.RawMessage {
	defs := map[string]any{}
	for i := 0; i < levels; i++ {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"allOf": []any{next,
			map[string]any{"anyOf": []any{next, map[string]any{"type": "object"}}}}}
	}
	defs[fmt.Sprintf("d%d", levels)] = map[string]any{"type": "object"}
	b, _ := json.Marshal(map[string]any{"type": "object",
		"properties": map[string]any{"a": map[string]any{"$ref": "#/$defs/d0"}}, "$defs": defs})
	return b
}

// A tool whose $refs fan out is refused by Compile with the place the fan-out begins to exceed
// the budget and the budget's name; one of a few levels compiles.
func TestEvaluationsBeyondTheBudget(t *testing.T) {
	if _, err := oracle.Compile(tool.Tool{Name: "fan", Parameters: fan(6)}); err != nil {
		t.Fatalf("6 levels: %v", err)
	}
	b, err := os.ReadFile("../../testdata/hostile/fan.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := tool.Parse(b, "fan.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range []tool.Tool{{Name: "fan", Parameters: fan(20)}, set.Tools[0]} {
		_, err = oracle.Compile(tl)
		var ce *validator.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "oracle.MaxEvaluations") ||
			!strings.Contains(err.Error(), "#/$defs/d9 ") {
			t.Errorf("err = %v, want a ConfigError naming #/$defs/d9 and oracle.MaxEvaluations", err)
		}
	}
}
