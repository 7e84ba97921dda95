package generate_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// Tool arguments are objects: whatever the schema also admits, New draws only objects, and
// {} and true mean any object.
func TestToolArgumentsAreObjects(t *testing.T) {
	for name, schema := range map[string]string{
		"empty":       `{}`,
		"true":        `true`,
		"description": `{"description":"no type at all"}`,
		"two types":   `{"type":["string","object"],"minLength":2}`,
		"anyOf":       `{"anyOf":[{"type":"string"},{"type":"object","properties":{"a":{"type":"integer"}}}]}`,
		"oneOf":       `{"oneOf":[{"type":"integer"},{"type":"object","required":["b"]}]}`,
		"enum":        `{"enum":[1,"a",{"k":true},null]}`,
		"nested loop": `{"type":"object","properties":{"p":{"$ref":"#/$defs/a"},"q":{"type":"integer"}},` +
			`"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`,
		"not an object?": `{"not":{"type":["string","number","integer","boolean","null","array"]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			gk, g := gentest.Schema(t, schema)
			got := 0
			for i := 0; i < 100; i++ {
				v := rapid.Custom(func(rt *rapid.T) any {
					v, _ := g.Draw(rt)
					return v
				}).Example(i)
				if v == nil {
					continue
				}
				obj, isObj := v.(map[string]any)
				if !isObj {
					t.Fatalf("drew %#v: not an object", v)
				}
				if err := gk.Validate(obj); err != nil {
					t.Fatalf("drew %#v, which the reference rejects: %v", v, err)
				}
				got++
			}
			if got < 90 {
				t.Fatalf("only %d of 100 draws found an object", got)
			}
			if st := g.Stats(); st.Bugs != 0 {
				t.Fatalf("generator bugs: %+v", st)
			}
		})
	}
}

// A schema that admits no object, or no value at all through a loop of $ref, is unsatisfiable
// for a tool, and the error says which.
func TestNoObjectAndRefLoopsSaySo(t *testing.T) {
	for name, c := range map[string]struct{ schema, want string }{
		"array":   {`{"type":"array"}`, "admits no JSON object"},
		"scalars": {`{"type":["string","number"]}`, "admits no JSON object"},
		"enum":    {`{"enum":[1,"a"]}`, "admits no JSON object"},
		"loop": {`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`,
			"loop of $ref"},
		"self": {`{"$ref":"#"}`, "loop of $ref"},
		"allOf loop": {`{"type":"object","allOf":[{"$ref":"#/$defs/a"}],"$defs":{"a":{"allOf":[{"$ref":"#"}]}}}`,
			"loop of $ref"},
		"required": {`{"type":"object","required":["p"],"properties":{"p":{"$ref":"#/$defs/a"}},` +
			`"$defs":{"a":{"$ref":"#/$defs/a"}}}`, "loop of $ref"},
	} {
		t.Run(name, func(t *testing.T) {
			gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(c.schema)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = generate.New(gk)
			if !errors.Is(err, generate.ErrUnsatisfiable) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want ErrUnsatisfiable saying %q", err, c.want)
			}
		})
	}
}
