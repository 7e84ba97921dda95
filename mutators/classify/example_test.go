package classify_test

import (
	"fmt"
	"strings"

	"github.com/toolproof/toolproof/mutators/classify"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// A team reads its own log of tool calls in a test: which distortions its model makes, and
// where. Here the log has three calls of the corpus tool read, in three forms.
func Example() {
	log := strings.NewReader(`{"tool":"read","arguments":"{\"path\":\"/a\",\"limit\":\"20\"}"}
{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"/a","limit":20}}
{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\":\"/b\",\"offset\":null,\"verbose\":true}"}}]}
`)
	calls, unreadable, err := classify.ReadCalls(log)
	if err != nil || len(unreadable) > 0 {
		fmt.Println(err, unreadable)
		return
	}
	cl, _ := classify.New(sample.Tools().Tools)
	for _, r := range cl.All(calls) {
		fmt.Printf("line %d %s (%s): %s\n", r.Line, r.Tool, r.Form, r.Reading)
		for _, d := range r.Distortions {
			fmt.Printf("  %s/%s at %s\n", d.Class, d.Variant, d.Path)
		}
	}
	// Output:
	// line 1 read (plain): invalid
	//   stringified_type/exact at /limit
	// line 2 read (anthropic): valid
	// line 3 read (openai-chat): invalid
	//   hallucinated_key/invented at /verbose
	//   null_value/null at /offset
}
