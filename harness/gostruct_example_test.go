package harness_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// A Go handler's gate is often encoding/json itself: it decodes the arguments into a struct
// and passes the struct on. Run judges the struct as its JSON encoding, so what encoding/json
// lets through shows: an undeclared key dropped in silence, a null read as the zero value, and
// 0.0, an integer to JSON Schema, refused for an int field.
func Example_goStruct() {
	type readArgs struct {
		Path   string `json:"path"`
		Offset *int   `json:"offset,omitempty"`
		Limit  *int   `json:"limit,omitempty"`
	}
	decoding := validator.Func("encoding/json", func(tool.Tool) (func([]byte) (any, error), error) {
		return func(args []byte) (any, error) {
			var a readArgs
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return a, nil
		}, nil
	})
	only, _ := mutators.Select("hallucinated_key,null_value")
	rep, err := harness.Run([]tool.Tool{read}, decoding, harness.Options{Mutators: only, Seed: 1, Checks: 20})
	if err != nil {
		panic(err)
	}
	for _, f := range rep.Findings {
		fmt.Println(f.Class, f.Kind, "at", f.Path, string(f.Args))
	}
	// Output:
	// hallucinated_key missed at /verbose {"path":"a","verbose":"tpc-00000000"}
	// null_value imprecise_location at /path {"limit":3.0,"path":null}
	// null_value missed at /limit {"limit":null,"path":"d"}
	// null_value missed at /offset {"offset":null,"path":"bkP0nAhASaHab"}
	// null_value missed at /path {"path":null}
	// valid false_reject at  {"offset":0.0,"path":"a"}
}
