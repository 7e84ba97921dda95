package validator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

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

// Wording reads a tool's error answers in its own words: what the user's patterns match becomes
// a rejection (Reject) or a run (Ran); any other answer stays as it came.
func ExampleWording_Reread() {
	w := validator.Wording{Reject: regexp.MustCompile(`^invalid input`), Ran: regexp.MustCompile(`not found`)}
	answer := func(text string) validator.Verdict {
		v := validator.Unclear("isError: " + text)
		v.Issues, v.ErrorAnswer = []validator.Issue{{Message: text}}, validator.Refused
		return v
	}
	for _, v := range []validator.Verdict{answer("invalid input: limit must be a number"),
		answer("entity 9 not found"), answer("quota exceeded"), validator.Unclear("a result in no known form")} {
		r := w.Reread(v)
		fmt.Printf("valid %v, unclear %v, issues %v\n", r.Valid, r.Unclear, r.Issues)
	}
	// Output:
	// valid false, unclear false, issues [(root): invalid input: limit must be a number]
	// valid true, unclear false, issues []
	// valid false, unclear true, issues [(root): quota exceeded]
	// valid false, unclear true, issues []
}
