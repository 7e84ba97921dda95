package mutators

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/generate"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// TestDifferReadsTextAsTheWalkDoes: the binary64 check gives the same answer from a case's text
// (numbers read as written are skipped without a walk) as from the value alone, for valid
// values and every value distortion, on schemas whose verdicts depend on how numbers are read,
// and on texts whose strings and keys hold digits, escapes and backslash runs.
func TestDifferReadsTextAsTheWalkDoes(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":9007199254740993},` +
			`"x":{"type":"number","multipleOf":0.01},"s":{"type":"string"}},"required":["n"]}`,
		`{"type":"object","properties":{"a":{"type":"array","items":{"type":"number","exclusiveMaximum":1e300}},` +
			`"k":{"not":{"const":12345678901234567890}}},"additionalProperties":{"type":"integer"}}`,
		`{"type":"object","properties":{"e":{"enum":[0.1,100000000000000000001,"9e9"]},"u":{"type":"array","uniqueItems":true}}}`,
	}
	for _, schema := range schemas {
		gk, err := validator.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
		if err != nil {
			t.Fatal(err)
		}
		g, err := generate.New(gk)
		if err != nil {
			t.Fatal(err)
		}
		ctx := NewContext(gk, nil)
		same := func(t *rapid.T, v any, text []byte, issues []validator.Issue) {
			if a, b := ctx.doubles.differ(v, text, issues), ctx.doubles.differ(v, nil, issues); a != b {
				t.Fatalf("%s: from the text %v, from the value %v", text, a, b)
			}
		}
		rapid.Check(t, func(t *rapid.T) {
			v, ok := g.Draw(t)
			if !ok {
				t.Fatalf("%s: no valid value", schema)
			}
			tg := ctx.Target(v)
			same(t, v, tg.Text, nil)
			for _, m := range All() {
				mu, ok := m.Mutate(t, tg)
				if !ok || mu.Raw {
					continue
				}
				w, err := jsonvalue.Parse(mu.Args)
				if err != nil {
					t.Fatal(err)
				}
				same(t, w, mu.Args, gk.Locate(w))
			}
		})
		for _, text := range []string{
			`{"9e9":"1\"2","n":12345678901234567890}`, `{"\\":"-0.5","n":1,"s":"\\\"3"}`,
			`{"a":[1e400],"n":2}`, `{"n":-0,"x":0.07}`, `{"e":100000000000000000001,"n":3}`, `{"s":"","x":1.5e-7}`,
		} {
			v, err := jsonvalue.Parse([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			b := jsonvalue.MustMarshal(v)
			if a, w := ctx.doubles.differ(v, b, gk.Locate(v)), ctx.doubles.differ(v, nil, gk.Locate(v)); a != w {
				t.Errorf("%s: from the text %v, from the value %v", b, a, w)
			}
		}
	}
}
