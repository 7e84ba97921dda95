package audit_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolproof/toolproof/audit"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// The audit reads a schema and says where it lets a distortion through: here an open object
// lets invented keys pass, and a field typed [integer, string] lets a stringified number pass.
func ExampleTool() {
	search := tool.Tool{Name: "search", Parameters: json.RawMessage(`{
		"type": "object",
		"properties": {
			"query": {"type": "string"},
			"limit": {"type": ["integer", "string"]},
			"mode":  {"enum": ["fast", "deep"]}
		},
		"required": ["query"]
	}`)}
	gk, err := validator.Compile(search)
	if err != nil {
		panic(err)
	}
	for _, p := range audit.Tool(gk.Schema()) {
		if p.Passes {
			fmt.Printf("%s passes at %q: %s\n", p.Class, p.Path, p.Why)
		}
	}
	// Output:
	// stringified_type passes at "/limit": /limit is typed [integer, string]: a number or boolean written as a string passes
	// hallucinated_key passes at "": the root is an open object: invented keys pass
	// out_of_range_enum passes at "/query": /query is a free string: no enum, pattern or length to leave
}
