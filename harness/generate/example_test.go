package generate_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// A Generator draws valid arguments from a compiled schema; every value is confirmed by the
// oracle before it is returned. Valid() is a rapid generator, for property tests of your own
// (Example draws outside a test, from a fixed seed).
func ExampleNew() {
	deploy := tool.Tool{Name: "deploy", Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {
			"service":  {"type": "string", "pattern": "^[a-z][a-z0-9-]{2,30}$"},
			"env":      {"enum": ["dev", "staging", "prod"]},
			"replicas": {"type": "integer", "minimum": 1, "maximum": 20}
		},
		"required": ["service", "env"],
		"additionalProperties": false
	}`)}
	gk, err := oracle.Compile(deploy)
	if err != nil {
		panic(err)
	}
	g, err := generate.New(gk)
	if err != nil {
		panic(err)
	}
	valid := 0
	for i := 0; i < 50; i++ {
		if gk.Valid(g.Valid().Example(i)) {
			valid++
		}
	}
	fmt.Printf("%d of 50 values valid; generator bugs: %d\n", valid, g.Stats().Bugs)
	// Output:
	// 50 of 50 values valid; generator bugs: 0
}

// A schema no value can satisfy is refused with the reason.
func ExampleNew_unsatisfiable() {
	t := tool.Tool{Name: "t",
		Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":5,"maximum":2}},` +
			`"required":["n"]}`)}
	gk, err := oracle.Compile(t)
	if err != nil {
		panic(err)
	}
	_, err = generate.New(gk)
	fmt.Println(errors.Is(err, generate.ErrUnsatisfiable))
	// Output:
	// true
}
