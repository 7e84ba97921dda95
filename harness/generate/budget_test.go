package generate_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// A big enum is filtered by the other constraints without a scan of the enum per value, and
// with the same result: only the values every schema admits are drawn (the oracle confirms
// each, so a wrong one would be a generator bug), and all of them are reachable.
func TestBigEnumFilteredByTheOtherConstraints(t *testing.T) {
	var vals []any
	for i := 0; i < 3000; i++ {
		vals = append(vals, fmt.Sprintf("v%d", i), i)
	}
	sub := []any{"v1", "v12", "v123", "v1234", "v2", 5, "nope"}
	schema, _ := json.Marshal(map[string]any{
		"type": "object", "required": []string{"e"},
		"properties": map[string]any{"e": map[string]any{"$ref": "#/$defs/e"}},
		"$defs": map[string]any{"e": map[string]any{"enum": vals, "type": "string", "pattern": "^v1",
			"allOf": []any{map[string]any{"enum": sub}}}},
	})
	_, g := gentest.New(t, tool.Tool{Name: "t", Parameters: schema})
	seen := map[any]bool{}
	for i := 0; i < 200; i++ {
		v := rapid.Custom(func(rt *rapid.T) any { v, _ := g.Draw(rt); return v }).Example(i)
		if m, ok := v.(map[string]any); ok {
			seen[m["e"]] = true
		}
	}
	if st := g.Stats(); st.Bugs != 0 {
		t.Fatalf("generator bugs: %+v", st)
	}
	for _, want := range []string{"v1", "v12", "v123", "v1234"} {
		if !seen[want] {
			t.Errorf("%s never drawn (drew %v)", want, seen)
		}
	}
	if len(seen) != 4 {
		t.Errorf("drew %v, want the four values every schema admits", seen)
	}
}

// A tool whose values would be too big to draw is refused with the budget it exceeds.
func TestMinPropertiesBeyondTheBudget(t *testing.T) {
	gk, err := oracle.Compile(tool.Tool{Name: "t",
		Parameters: json.RawMessage(`{"type":"object","minProperties":100000}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := generate.New(gk); !errors.Is(err, generate.ErrTooBig) ||
		!strings.Contains(err.Error(), "generate.MaxMinProperties") {
		t.Fatalf("err = %v", err)
	}
}

// A tool asking for more items or a longer string than one case may hold is refused with the
// budget it exceeds, before anything is allocated.
func TestSizeBeyondTheBudget(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":200000000}}}`,
			"generate.MaxMinItems"},
		{`{"type":"object","properties":{"a":{"type":"array","minItems":50000000}}}`, "generate.MaxMinItems"},
		{`{"type":"object","required":["s"],"properties":{"s":{"type":"string","minLength":200000000}}}`,
			"generate.MaxMinLength"},
	} {
		gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(c.schema)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := generate.New(gk); !errors.Is(err, generate.ErrTooBig) || !strings.Contains(err.Error(), c.want) ||
			!strings.Contains(err.Error(), "#/properties/") {
			t.Errorf("%s: err = %v, want %s and the place", c.schema, err, c.want)
		}
	}
}

// A tool whose every valid value needs more nodes than a draw may build, or more string bytes
// than a case may hold, is refused before any draw, with the array that makes it so; a tool
// where some valid value is small enough (a small branch, a minItems without "type": "array")
// is drawn.
func TestNestedSizeBeyondTheDraw(t *testing.T) {
	nest := func(outer, inner int, str string) string {
		return fmt.Sprintf(`{"type":"array","minItems":%d,"items":{"type":"array","minItems":%d,"items":%s}}`,
			outer, inner, str)
	}
	wrap := func(a string) string {
		return `{"type":"object","required":["a"],"properties":{"a":` + a + `}}`
	}
	for _, c := range []struct{ schema, want string }{
		{wrap(nest(5000, 5000, `{"type":"string"}`)),
			"at least 25005002 JSON values (from minItems at mem://toolproof/t.json#/properties/a)"},
		{wrap(`{"type":"array","minItems":3000,"items":{"type":"string","minLength":1000000}}`),
			"at least 3000000000 bytes of strings"},
		{`{"type":"object","required":["a"],"properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":` +
			nest(200, 200, `{}`) + `}}`, "more than one draw may build (20000)"},
		{wrap(`{"allOf":[` + nest(300, 300, `{}`) + `,{"type":"array"}]}`), "JSON values"},
	} {
		gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(c.schema)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := generate.New(gk); !errors.Is(err, generate.ErrTooBig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\nerr = %v, want %q", c.schema, err, c.want)
		}
	}
	for _, schema := range []string{
		wrap(`{"anyOf":[` + nest(5000, 5000, `{}`) + `,{"type":"string"}]}`),
		wrap(`{"minItems":9000,"items":{"type":"array","minItems":9000}}`),
		wrap(nest(100, 150, `{"type":"string","minLength":3}`)),
	} {
		gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
		if err != nil {
			t.Fatal(err)
		}
		g, err := generate.New(gk)
		if err != nil {
			t.Errorf("%.200s: %v, want a generator", schema, err)
			continue
		}
		draw := rapid.Custom(func(rt *rapid.T) any { v, _ := g.Draw(rt); return v })
		if _, ok := draw.Example(0).(map[string]any); !ok {
			t.Errorf("%.200s: no value drawn", schema)
		}
	}
}

// A draw whose strings pass generate.MaxMinBytes ends there, whatever made them long (here a
// pattern's repetition, which the bound before any draw does not read): no value, at once.
func TestDrawStopsPastTheBytesBudget(t *testing.T) {
	schema := `{"type":"object","required":["a"],"properties":{"a":{"type":"array","minItems":9000,` +
		`"items":{"type":"string","pattern":"^(?:aaaaaaaaaa){150}$"}}}}`
	_, g := gentest.Schema(t, schema)
	var ok bool
	rapid.Custom(func(rt *rapid.T) any { _, ok = g.Draw(rt); return nil }).Example(0)
	if ok || g.Stats().Unreachable == 0 {
		t.Errorf("drew a value of 9000 strings of 1500 bytes: %+v", g.Stats())
	}
}

// A string whose minLength is past the lengths drawn freely (4096) is drawn at that length, not
// cut short below it: every draw of a tool asking for 5,000 or 100,000 characters is valid (the
// oracle confirms it) and as long as asked, near the least.
func TestLongMinLengthIsDrawn(t *testing.T) {
	for _, min := range []int{5000, 100000} {
		schema := fmt.Sprintf(`{"type":"object","required":["s"],"properties":{"s":{"type":"string",`+
			`"minLength":%d}}}`, min)
		gk, g := gentest.Schema(t, schema)
		draw := rapid.Custom(func(rt *rapid.T) any { v, _ := g.Draw(rt); return v })
		for seed := 0; seed < 5; seed++ {
			v, ok := draw.Example(seed).(map[string]any)
			if !ok {
				t.Fatalf("minLength %d, seed %d: no valid value drawn", min, seed)
			}
			s, _ := v["s"].(string)
			if n := utf8.RuneCountInString(s); n < min || n > min+8 {
				t.Errorf("minLength %d, seed %d: a string of %d characters", min, seed, n)
			}
			b, _ := json.Marshal(v)
			if _, err := gk.Parse(b); err != nil {
				t.Errorf("minLength %d, seed %d: the oracle rejects the value drawn: %v", min, seed, err)
			}
		}
	}
}
