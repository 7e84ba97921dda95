// Package gentest compiles, for a test or benchmark, a tool's reference gatekeeper and the
// generator of its valid arguments, failing the test on an error.
package gentest

import (
	"encoding/json"
	"testing"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// New returns tl's reference gatekeeper and generate.New's generator for it; t fails when
// either cannot be built.
func New(t testing.TB, tl tool.Tool) (*oracle.Gatekeeper, *generate.Generator) {
	t.Helper()
	return Build(t, tl, generate.New)
}

// Build is New with the generator that build makes (a test's own constructor, say).
func Build(t testing.TB, tl tool.Tool,
	build func(*oracle.Gatekeeper) (*generate.Generator, error)) (*oracle.Gatekeeper, *generate.Generator) {
	t.Helper()
	gk, err := oracle.Compile(tl)
	if err != nil {
		t.Fatal(err)
	}
	g, err := build(gk)
	if err != nil {
		t.Fatal(err)
	}
	return gk, g
}

// Schema is New for a tool named "t" whose parameters are the JSON Schema text schema.
func Schema(t testing.TB, schema string) (*oracle.Gatekeeper, *generate.Generator) {
	t.Helper()
	return New(t, tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
}
