package oracle_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// wide is a tool's parameters of n optional string properties.
func wide(n int) json.RawMessage {
	props := map[string]any{}
	for i := 0; i < n; i++ {
		props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string"}
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	return b
}

// A tool of more subschemas than the budget is refused by Compile with the budget's name, the
// count and what to do; one at the budget is counted within it, and a smaller one compiles.
func TestSubschemasBeyondTheBudget(t *testing.T) {
	if _, err := oracle.Compile(tool.Tool{Name: "wide", Parameters: wide(1000)}); err != nil {
		t.Fatalf("1000 properties: %v", err)
	}
	doc, err := jsonvalue.Parse(wide(oracle.MaxSubschemas - 1))
	if err != nil {
		t.Fatal(err)
	}
	if n := oracle.Subschemas(doc); n != oracle.MaxSubschemas {
		t.Fatalf("%d properties and the root: %d subschemas", oracle.MaxSubschemas-1, n)
	}
	_, err = oracle.Compile(tool.Tool{Name: "wide", Source: "wide.json", Parameters: wide(oracle.MaxSubschemas)})
	var ce *validator.ConfigError
	if !errors.As(err, &ce) || ce.Tool != "wide" || ce.Source != "wide.json" {
		t.Fatalf("err = %v, want a ConfigError of wide (wide.json)", err)
	}
	for _, want := range []string{"oracle.MaxSubschemas", fmt.Sprintf("hold %d subschemas", oracle.MaxSubschemas+1),
		fmt.Sprintf("more than %d", oracle.MaxSubschemas), "split the tool"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to name %q", err, want)
		}
	}
}

// The count takes every place a schema may stand and nothing that is data.
func TestSubschemasCount(t *testing.T) {
	for _, c := range []struct {
		schema string
		want   int
	}{
		{`true`, 1},
		{`{}`, 1},
		{`{"type":"object","properties":{"a":{},"b":true},"required":["a"]}`, 3},
		{`{"enum":[{},{},{}],"const":{},"default":{"a":{}},"examples":[{}]}`, 1},
		{`{"allOf":[{},{"anyOf":[true,{}]}],"not":{"type":"string"},"items":false,"uniqueItems":true}`, 7},
		{`{"$defs":{"a":{"properties":{"x":{}}}},"$ref":"#/$defs/a","dependentRequired":{"x":["y"]}}`, 4},
		{`{"prefixItems":[{},{}],"additionalProperties":{"if":{},"then":{},"else":false}}`, 7},
	} {
		doc, err := jsonvalue.Parse([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		if got := oracle.Subschemas(doc); got != c.want {
			t.Errorf("%s: %d subschemas, want %d", c.schema, got, c.want)
		}
	}
}
