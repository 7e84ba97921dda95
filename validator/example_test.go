package validator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// read is the embedded corpus's read tool: a path (a non-empty string, required), an offset
// (an integer, at least 0) and a limit (an integer from 1 to 2000), and nothing else.
var read, _ = sample.Tools().Lookup("read")

// Func turns a Go gate into a Validator: compile once per tool, then check each call's
// argument text, returning the value passed on (nil: the input unchanged) or an error. This
// one only checks that the arguments are a JSON object with a path.
func ExampleFunc() {
	gate := validator.Func("my-gate", func(t tool.Tool) (func([]byte) (any, error), error) {
		return func(args []byte) (any, error) {
			var m map[string]any
			if err := json.Unmarshal(args, &m); err != nil {
				return nil, &validator.Error{Tool: t.Name,
					Issues: []validator.Issue{{Path: "", Keyword: "type", Message: "not a JSON object"}}}
			}
			if _, ok := m["path"].(string); !ok {
				return nil, errors.New("path is required")
			}
			return nil, nil
		}, nil
	})
	g, err := gate.Compile(read)
	if err != nil {
		panic(err)
	}
	for _, args := range []string{`{"path":"a.go"}`, `{"limit":3}`, `[1]`} {
		v := g.Check(context.Background(), []byte(args))
		fmt.Printf("%-16s valid=%v issues=%v\n", args, v.Valid, v.Issues)
	}
	// Output:
	// {"path":"a.go"}  valid=true issues=[]
	// {"limit":3}      valid=false issues=[(root): path is required]
	// [1]              valid=false issues=[(root): not a JSON object]
}

// The reference gatekeeper parses strictly, validates without coercion, points at each problem
// with a JSON Pointer, and never repeats an argument value in its messages; Correction is text
// an agent can send back to the model.
func ExampleCompile() {
	gk, err := oracle.Compile(read)
	if err != nil {
		panic(err)
	}
	v := gk.Check(context.Background(), []byte(`{"path":"a.go","limit":"20","follow":true}`))
	fmt.Println("valid:", v.Valid)
	for _, is := range v.Issues {
		fmt.Printf("%s %s\n", is.Path, is.Keyword)
	}
	var e *validator.Error
	if errors.As(gk.Validate(map[string]any{"path": ""}), &e) {
		fmt.Println(e.Correction())
	}
	// Output:
	// valid: false
	// /follow additionalProperties
	// /limit type
	// The call to tool "read" was not run because its arguments are invalid. Fix these and call the tool again with a JSON object of arguments:
	// - `/path`: must be at least 1 characters long
}
