package oracle_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolproof/toolproof/validator/oracle"
)

// BenchmarkCompileWide compiles a tool of N optional string properties side by side: twice the
// properties cost about four times the time, the lookup of each subschema in
// santhosh-tekuri/jsonschema's compile queue (queue.get, a scan). It compiles through the library
// directly, since oracle.Compile refuses a tool beyond oracle.MaxSubschemas; MaxSubschemas properties
// (one subschema past the budget, with the root) are about its worst case.
func BenchmarkCompileWide(b *testing.B) {
	for _, n := range []int{12500, oracle.MaxSubschemas, 25000, 50000} {
		props := map[string]any{}
		for i := 0; i < n; i++ {
			props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string"}
		}
		params, err := json.Marshal(map[string]any{"type": "object", "properties": props})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if err := oracle.CompileUnbudgeted(params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
