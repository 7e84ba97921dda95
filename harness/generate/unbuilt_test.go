package generate_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// codeTool is a tool whose required string "code" has the pattern, and extra keywords (examples).
func codeTool(pattern, extra string) tool.Tool {
	pj, _ := json.Marshal(pattern)
	return tool.Tool{Name: "t", Parameters: json.RawMessage(`{"type":"object","required":["code"],` +
		`"properties":{"code":` +
		`{"type":"string","pattern":` + string(pj) + extra + `}}}`)}
}

// A required property whose pattern the string builder cannot read (RE2 counts at most 1000
// repetitions; ECMA-262 has no such bound) is no unsatisfiable schema: New says the generator
// cannot construct a string for it, names the pattern and its place, and what makes the tool
// checked. With an example that matches, the example is drawn.
func TestPatternTheBuilderCannotRead(t *testing.T) {
	gk, err := oracle.Compile(codeTool(`^x{1001}$`, ""))
	if err != nil {
		t.Fatal(err)
	}
	_, err = generate.New(gk)
	if !errors.Is(err, generate.ErrCannotConstruct) || errors.Is(err, generate.ErrUnsatisfiable) {
		t.Fatalf("err = %v, want ErrCannotConstruct and not ErrUnsatisfiable", err)
	}
	for _, want := range []string{`pattern "^x{1001}$" at /properties/code/pattern`, "cannot construct a string for it",
		`"examples"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to say %q", err, want)
		}
	}
	x := strings.Repeat("x", 1001)
	gk, g := gentest.Build(t, codeTool(`^x{1001}$`, `,"examples":["xx","`+x+`"]`), generate.New)
	for _, v := range draws(t, g, gk, 20) {
		if v.(map[string]any)["code"] != x {
			t.Fatalf("drew %v, want the matching example", v)
		}
	}
}

// A pattern the builder reads but whose strings never meet it (two lookaheads and a lookbehind
// inside one) leaves every draw without a value: Stats names the pattern and its place. A
// matching "default" or example is drawn instead, and then nothing is unbuilt.
func TestPatternNoBuiltStringMeets(t *testing.T) {
	const hard = `^(?=[a-z]{3}$)(?=.*(?<!\d)x)\w+$`
	gk, g := gentest.Build(t, codeTool(hard, ""), generate.New)
	if vs := draws(t, g, gk, 20); len(vs) != 0 {
		t.Fatalf("drew %v: the pattern is no longer beyond the generator; pick another for this test", vs)
	}
	want := fmt.Sprintf("pattern %q at /properties/code/pattern", hard)
	if un := g.Stats().Unbuilt; len(un) != 1 || un[0] != want {
		t.Fatalf("Unbuilt %q, want [%s]", un, want)
	}
	for _, extra := range []string{`,"default":"abx"`, `,"examples":["ab1","abx"]`} {
		gk, g := gentest.Build(t, codeTool(hard, extra), generate.New)
		vs := draws(t, g, gk, 20)
		if len(vs) != 20 {
			t.Fatalf("%s: %d values of 20", extra, len(vs))
		}
		for _, v := range vs {
			if v.(map[string]any)["code"] != "abx" {
				t.Fatalf("%s: drew %v, want the matching example", extra, v)
			}
		}
		if un := g.Stats().Unbuilt; len(un) != 0 {
			t.Errorf("%s: Unbuilt %q with an example to draw", extra, un)
		}
	}
}

// draws draws n values (seeds 0..n-1) and returns those found, each confirmed by the oracle.
func draws(t *testing.T, g *generate.Generator, gk *oracle.Gatekeeper, n int) []any {
	t.Helper()
	type res struct {
		v  any
		ok bool
	}
	gen := rapid.Custom(func(rt *rapid.T) res { v, ok := g.Draw(rt); return res{v, ok} })
	var out []any
	for i := 0; i < n; i++ {
		if r := gen.Example(i); r.ok {
			if !gk.Valid(r.v) {
				t.Fatalf("invalid value %v", r.v)
			}
			out = append(out, r.v)
		}
	}
	return out
}
