package gosdk_test

import (
	"fmt"
	"io"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/gosdk"
	"github.com/toolproof/toolproof/validator/mcp/gosdk/examples"
)

// The Go MCP SDK's own path for a typed tool (mcp.AddTool): the arguments validated against the
// schema it infers from the input struct, then unmarshaled into the struct the handler gets.
// toolproof calls the server over in-memory pipes, its tools as the server lists them. Every
// distortion here is refused; a stringified value's refusal does not name the property (an
// imprecise_location, which blocks only with Options.RequireLocation), and some refusals hand
// the received value back to the model (a leak: google/jsonschema-go's messages quote it).
func ExampleValidator() {
	c, err := gosdk.Validator(examples.GoSDK(), mcp.Options{Stderr: io.Discard})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	tools, err := c.Tools()
	if err != nil {
		panic(err)
	}
	only, _ := mutators.Select("stringified_type,hallucinated_key,missing_required,misnamed_key")
	rep, err := harness.Run(tools, c, harness.Options{Mutators: only, Seed: 1, Checks: 10})
	if err != nil {
		panic(err)
	}
	for _, f := range rep.Findings {
		fmt.Println(f.Tool, f.Class, f.Kind, "at", f.Path)
	}
	// Output:
	// send_note stringified_type imprecise_location at /meta
	// send_note stringified_type imprecise_location at /priority
	// send_note stringified_type imprecise_location at /weight
	// send_note stringified_type leak at /meta
	// send_note stringified_type leak at /priority
	// set_alarm stringified_type imprecise_location at /hour
	// set_alarm stringified_type imprecise_location at /loud
	// set_alarm stringified_type leak at /hour
}
