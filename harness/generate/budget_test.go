package generate_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// A big enum is filtered by the other constraints without a scan of the enum per value, and
// with the same result: only the values every schema admits are drawn (the oracle confirms
// each, so a wrong one would be a generator bug), and all of them are reachable.
func TestBigEnumFilteredByTheOtherConstraints(t *testing.T) {
	var vals []any
	for i := 0; i < 3000; i++ {
		vals = append(vals, fmt.Sprintf("v%d", i), i)
	}
	sub := []any{"v1", "v12", "v123", "v1234", "v2", 5, "nope"}
	schema, _ := json.Marshal(map[string]any{
		"type": "object", "required": []string{"e"},
		"properties": map[string]any{"e": map[string]any{"$ref": "#/$defs/e"}},
		"$defs": map[string]any{"e": map[string]any{"enum": vals, "type": "string", "pattern": "^v1",
			"allOf": []any{map[string]any{"enum": sub}}}},
	})
	gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: schema})
	if err != nil {
		t.Fatal(err)
	}
	g, err := generate.New(gk)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[any]bool{}
	for i := 0; i < 200; i++ {
		v := rapid.Custom(func(rt *rapid.T) any { v, _ := g.Draw(rt); return v }).Example(i)
		if m, ok := v.(map[string]any); ok {
			seen[m["e"]] = true
		}
	}
	if st := g.Stats(); st.Bugs != 0 {
		t.Fatalf("generator bugs: %+v", st)
	}
	for _, want := range []string{"v1", "v12", "v123", "v1234"} {
		if !seen[want] {
			t.Errorf("%s never drawn (drew %v)", want, seen)
		}
	}
	if len(seen) != 4 {
		t.Errorf("drew %v, want the four values every schema admits", seen)
	}
}

// A tool whose values would be too big to draw is refused with the budget it exceeds.
func TestMinPropertiesBeyondTheBudget(t *testing.T) {
	gk, err := oracle.Compile(tool.Tool{Name: "t",
		Parameters: json.RawMessage(`{"type":"object","minProperties":100000}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generate.New(gk); !errors.Is(err, generate.ErrTooBig) ||
		!strings.Contains(err.Error(), "generate.MaxMinProperties") {
		t.Fatalf("err = %v", err)
	}
}

// A tool asking for more items or a longer string than one case may hold is refused with the
// budget it exceeds, before anything is allocated.
func TestSizeBeyondTheBudget(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":200000000}}}`,
			"generate.MaxMinItems"},
		{`{"type":"object","properties":{"a":{"type":"array","minItems":50000000}}}`, "generate.MaxMinItems"},
		{`{"type":"object","required":["s"],"properties":{"s":{"type":"string","minLength":200000000}}}`,
			"generate.MaxMinLength"},
	} {
		gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(c.schema)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := generate.New(gk); !errors.Is(err, generate.ErrTooBig) || !strings.Contains(err.Error(), c.want) ||
			!strings.Contains(err.Error(), "#/properties/") {
			t.Errorf("%s: err = %v, want %s and the place", c.schema, err, c.want)
		}
	}
}
