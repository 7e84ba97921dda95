package harness_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// A gate that "helps" the model by turning "20" into 20 before validating, as Ajv's
// coerceTypes does, lets stringified numbers through: the harness finds it, shrinks it and
// says what the gate passed on.
func Example() {
	read := tool.Tool{Name: "read", Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {
			"path":  {"type": "string", "minLength": 1},
			"limit": {"type": "integer", "minimum": 1, "maximum": 2000}
		},
		"required": ["path"],
		"additionalProperties": false
	}`)}
	coercing := validator.Func("coercing", func(t tool.Tool) (func([]byte) (any, error), error) {
		gk, err := validator.Compile(t)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) {
			v, err := jsonvalue.Parse(args)
			if err != nil {
				return nil, err
			}
			if m, ok := v.(map[string]any); ok {
				if s, ok := m["limit"].(string); ok && jsonvalue.IsNumber(strings.TrimSpace(s)) {
					m["limit"] = json.Number(strings.TrimSpace(s))
				}
			}
			return v, gk.Validate(v)
		}, nil
	})
	only, _ := mutators.Select("stringified_type,out_of_range_enum")
	rep, err := harness.Run([]tool.Tool{read}, coercing, harness.Options{Mutators: only})
	if err != nil {
		panic(err)
	}
	fmt.Println("passed:", rep.Passed)
	for _, f := range rep.Findings {
		fmt.Println(f.Tool, f.Class, f.Kind, "at", f.Path)
	}
	// Output:
	// passed: false
	// read stringified_type missed at /limit
}
