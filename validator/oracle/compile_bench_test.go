package oracle_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// BenchmarkCompileOptionalProperties compiles a tool of N optional string properties, 12,500
// and 50,000 side by side: four times the properties cost about sixteen times the time, the
// lookup of each subschema in santhosh-tekuri/jsonschema's compile queue (queue.get, a scan).
func BenchmarkCompileOptionalProperties(b *testing.B) {
	for _, n := range []int{12500, 50000} {
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
				if _, err := oracle.Compile(tool.Tool{Name: "wide", Parameters: params}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
