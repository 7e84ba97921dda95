package generate_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

func newGen(t *testing.T, schema string) (*generate.Generator, *oracle.Gatekeeper) {
	t.Helper()
	gk, g := gentest.Build(t, tool.Tool{Name: "t", Parameters: json.RawMessage(schema)}, generate.NewAnyValue)
	return g, gk
}

// sampleValues draws n values (seeds 0..n-1); every one must be valid.
func sampleValues(t *testing.T, g *generate.Generator, gk *oracle.Gatekeeper, n int) []any {
	t.Helper()
	type res struct {
		v  any
		ok bool
	}
	gen := rapid.Custom(func(rt *rapid.T) res { v, ok := g.Draw(rt); return res{v, ok} })
	var out []any
	for i := 0; i < n; i++ {
		r := gen.Example(i)
		if !r.ok {
			continue
		}
		if !gk.Valid(r.v) {
			t.Fatalf("invalid value %s: %v", jsonvalue.MustMarshal(r.v), gk.Issues(r.v))
		}
		out = append(out, r.v)
	}
	if st := g.Stats(); st.Bugs > 0 {
		t.Fatalf("generator bugs: %+v", st)
	}
	if len(out) < n*9/10 {
		t.Fatalf("only %d of %d draws found a value", len(out), n)
	}
	return out
}

// Every keyword of draft 2020-12, alone and combined, yields valid values (the oracle confirms
// each one) and the generator reaches them.
func TestKeywords(t *testing.T) {
	for name, schema := range map[string]string{
		"types":              `{"type":["integer","string","null","boolean","array","object"]}`,
		"const":              `{"const":{"a":[1,"x"]}}`,
		"enum":               `{"enum":[1,"a",null,[2]]}`,
		"integer bounds":     `{"type":"integer","minimum":-3,"exclusiveMaximum":4}`,
		"decimal multipleOf": `{"type":"number","multipleOf":0.01,"minimum":0.05,"maximum":0.5}`,
		"two multipleOfs":    `{"allOf":[{"multipleOf":6},{"multipleOf":4}],"type":"integer","maximum":100}`,
		"narrow exclusive":   `{"type":"number","exclusiveMinimum":0.1,"exclusiveMaximum":0.11}`,
		"huge bounds":        `{"type":"integer","minimum":100000000000000000000000}`,
		"lengths":            `{"type":"string","minLength":3,"maxLength":5}`,
		"pattern":            `{"type":"string","pattern":"^[A-Z]{2}-[0-9]{3,5}$"}`,
		"pattern and length": `{"type":"string","pattern":"^a+$","minLength":4,"maxLength":6}`,
		"formats": `{"type":"array","prefixItems":[{"format":"date-time"},{"format":"date"},` +
			`{"format":"time"},{"format":"duration"},{"format":"email"},{"format":"hostname"},{"format":"ipv4"},` +
			`{"format":"ipv6"},{"format":"uri"},{"format":"uri-reference"},{"format":"uuid"}],"minItems":11,` +
			`"items":false}`,
		"items": `{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":4,` +
			`"uniqueItems":true}`,
		"contains": `{"type":"array","contains":{"const":7},"minContains":2,"maxContains":3,` +
			`"items":{"type":"integer","minimum":0,"maximum":9}}`,
		"object": `{"type":"object","properties":{"a":{"type":"string"}},` +
			`"patternProperties":{"^x_":{"type":"integer"}},"propertyNames":{"maxLength":8},"minProperties":2,` +
			`"maxProperties":4}`,
		"dependencies": `{"type":"object","properties":{"a":{},"b":{},"c":{"type":"integer"}},` +
			`"dependentRequired":{"a":["b"]},"dependentSchemas":{"b":{"required":["c"]}}}`,
		"allOf merged": `{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},` +
			`{"properties":{"b":{"type":"string"}},"required":["b"]}],"unevaluatedProperties":false}`,
		"oneOf exactly one": `{"oneOf":[{"type":"integer","multipleOf":2},{"type":"integer","multipleOf":3}]}`,
		"not":               `{"type":["string","integer"],"not":{"type":"string"}}`,
		"if then else": `{"type":"object","properties":{"kind":{"enum":["a","b"]}},"required":["kind"],` +
			`"if":{"properties":{"kind":{"const":"a"}}},"then":{"required":["x"]},"else":{"required":["y"]}}`,
		"recursive ref": `{"$defs":{"node":{"type":"object","properties":{"children":{"type":"array",` +
			`"items":{"$ref":"#/$defs/node"}}},"required":["children"]}},"$ref":"#/$defs/node"}`,
		"anchor": `{"$defs":{"x":{"$anchor":"pos","type":"integer","minimum":1}},"type":"array",` +
			`"items":{"$ref":"#pos"}}`,
		"boolean schemas": `{"type":"object","properties":{"never":false,"any":true}}`,
		"draft-07": `{"$schema":"http://json-schema.org/draft-07/schema#","type":"array",` +
			`"items":[{"type":"string"}],"additionalItems":false}`,
	} {
		t.Run(name, func(t *testing.T) {
			g, gk := newGen(t, schema)
			sampleValues(t, g, gk, 200)
		})
	}
}

func TestUnsatisfiableSchemasSaySo(t *testing.T) {
	for name, schema := range map[string]string{
		"bounds":           `{"type":"integer","minimum":5,"maximum":3}`,
		"enum vs type":     `{"type":"string","enum":[1,2]}`,
		"type conflict":    `{"allOf":[{"type":"string"},{"type":"integer"}]}`,
		"false":            `false`,
		"required but off": `{"type":"object","required":["a"],"properties":{"a":false}}`,
		"no multiple":      `{"type":"integer","multipleOf":10,"minimum":1,"maximum":9}`,
		"lengths":          `{"type":"string","minLength":5,"maxLength":2}`,
		"nested required": `{"type":"object","properties":{"p":{"type":"object","required":["a"],` +
			`"additionalProperties":false}},"required":["p"]}`,
		"items":        `{"type":"array","minItems":1,"items":{"type":"string","enum":[1]}}`,
		"every branch": `{"anyOf":[{"type":"string","minLength":3,"maxLength":1},{"const":1,"type":"string"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = generate.NewAnyValue(gk)
			if !errors.Is(err, generate.ErrUnsatisfiable) || !strings.Contains(err.Error(), `tool "t"`) {
				t.Fatalf("err = %v, want ErrUnsatisfiable naming the tool", err)
			}
		})
	}
	// Unreachable by construction (the only values are filtered away): a clear failure, fast.
	g, _ := newGen(t, `{"type":"string","pattern":"^a$","not":{"const":"a"}}`)
	gen := rapid.Custom(func(rt *rapid.T) bool { _, ok := g.Draw(rt); return ok })
	for i := 0; i < 5; i++ {
		if gen.Example(i) {
			t.Fatal("found a value that cannot exist")
		}
	}
	if g.Stats().Unreachable == 0 {
		t.Fatal("unreachable draws not counted")
	}
}

// The generator leans to the edges where validators break.
func TestEdges(t *testing.T) {
	g, gk := newGen(t, `{"type":"object","properties":{
		"n":{"type":"integer","minimum":1,"maximum":60},
		"z":{"type":"integer"},
		"x":{"type":"number"},
		"s":{"type":"string"},
		"l":{"type":"array","items":{"type":"integer"},"maxItems":5},
		"opt":{"type":"boolean"}
	},"required":["n","z","x","s","l"]}`)
	seen := map[string]bool{}
	for _, v := range sampleValues(t, g, gk, 1500) {
		m := v.(map[string]any)
		n := string(m["n"].(json.Number))
		seen["n="+n] = true
		z := string(m["z"].(json.Number))
		if z == "-0" {
			seen["-0"] = true
		}
		if strings.HasSuffix(z, ".0") {
			seen["integer as 1.0"] = true
		}
		if strings.ContainsAny(z, "eE") {
			seen["integer with exponent"] = true
		}
		if r, ok := jsonvalue.Rat(m["z"].(json.Number)); ok && r.Num().BitLen() > 53 {
			seen["past 2^53"] = true
		}
		for _, r := range m["s"].(string) {
			switch {
			case r > 0xffff:
				seen["astral"] = true
			case r == 0:
				seen["NUL"] = true
			case r >= 0x0590 && r <= 0x06ff:
				seen["right-to-left"] = true
			}
		}
		if m["s"] == "" {
			seen["empty string"] = true
		}
		if !utf8.ValidString(m["s"].(string)) {
			t.Fatalf("invalid UTF-8 string")
		}
		switch len(m["l"].([]any)) {
		case 0:
			seen["empty array"] = true
		case 5:
			seen["full array"] = true
		}
		if _, ok := m["opt"]; ok {
			seen["optional present"] = true
		} else {
			seen["optional absent"] = true
		}
		for k := range m {
			switch k {
			case "~", "/", "a/b", "~1", "__proto__":
				seen["key "+k] = true
			}
		}
	}
	for _, want := range []string{"n=1", "n=60", "-0", "integer as 1.0", "integer with exponent", "past 2^53",
		"astral", "NUL", "right-to-left", "empty string", "empty array", "full array", "optional present",
		"optional absent", "key ~", "key /", "key __proto__"} {
		if !seen[want] {
			t.Errorf("no %s in 1500 values", want)
		}
	}
}

func TestSameSeedSameValues(t *testing.T) {
	g, _ := newGen(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"array",`+
		`"items":{"type":"number"}}}}`)
	gen := rapid.Custom(func(rt *rapid.T) string { v, _ := g.Draw(rt); return string(jsonvalue.MustMarshal(v)) })
	for i := 0; i < 20; i++ {
		if a, b := gen.Example(i), gen.Example(i); a != b {
			t.Fatalf("seed %d: %s then %s", i, a, b)
		}
	}
}
