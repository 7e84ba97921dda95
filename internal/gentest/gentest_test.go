package gentest_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/gentest"
)

// TestSchemaDrawsValidArguments: the generator Schema builds draws what its gatekeeper accepts.
func TestSchemaDrawsValidArguments(t *testing.T) {
	gk, g := gentest.Schema(t, `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	rapid.Check(t, func(rt *rapid.T) {
		if err := gk.Validate(g.Valid().Draw(rt, "args")); err != nil {
			rt.Fatalf("drawn arguments rejected: %v", err)
		}
	})
}
