package audit_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolproof/toolproof/mutators/audit"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// The audit says where a schema lets a distortion through, each claim backed by arguments the
// oracle accepts: here an open object lets invented keys pass, and a field typed [integer,
// string] lets a stringified number pass.
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
	gk, err := oracle.Compile(search)
	if err != nil {
		panic(err)
	}
	rep := audit.Tool(gk, audit.Options{})
	for _, p := range rep.Places {
		if p.Status == audit.Passes {
			fmt.Printf("%s passes at %q, e.g. %s\n", p.Class, p.Path, p.Witness.Args)
		}
	}
	// Output:
	// stringified_type passes at "/limit", e.g. {"limit":"-4","mode":"deep","query":"","x_gdig-fxb":25.5}
	// hallucinated_key passes at "", e.g. {"query":"a","verbose":"tpc-audit"}
	// out_of_range_enum passes at "/query", e.g. {"query":"as"}
	// wrong_type passes at "/limit", e.g. {"limit":42,"mode":"fast","query":""}
}
