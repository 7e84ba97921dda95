package mcp_test

import (
	"os"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// BenchmarkNullID runs the same checks on two stdio servers with the same correct gate: one
// answers every call with its id, the other answers what its JSON reader cannot parse (nesting
// past depth 64, as Python's json gives up on deep nesting) with -32700 and "id": null. The
// calls in flight when such an answer comes are sent again one at a time, never waited out:
// the two take about as long. nullids/op counts the -32700 answers.
//
//	go test ./validator/mcp -run '^$' -bench NullID -benchtime 5x
func BenchmarkNullID(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"correct", "null-id"} {
		b.Run(mode, func(b *testing.B) {
			c, err := mcp.Start(mcp.Options{Command: []string{exe},
				Env:    append(os.Environ(), "TOOLPROOF_FAKE_MCP="+mode),
				Stderr: &syncBuffer{}, Timeout: 30 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			b.ResetTimer()
			for b.Loop() {
				rep, err := harness.Run(fakeserver.Tools, c, harness.Options{Jobs: 2, Checks: 50, Seed: 1})
				if err != nil || !rep.Passed {
					b.Fatalf("%v: findings %v", err, rep.Findings)
				}
			}
			b.ReportMetric(float64(c.Forms()[mcp.FormRPCParseError])/float64(b.N), "nullids/op")
		})
	}
}
