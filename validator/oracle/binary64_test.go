package oracle_test

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
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
		`{"type":"object","properties":{"e":{"enum":[0.1,100000000000000000001,"9e9"]},"u":{"type":"array",` +
			`"uniqueItems":true}}}`,
	}
	for _, schema := range schemas {
		gk, g, ctx := generated(t, schema)
		same := func(t *rapid.T, v any, text []byte, issues []validator.Issue) {
			if a, b := gk.Oracle().DoublesDiffer(v, text, issues), gk.Oracle().DoublesDiffer(v, nil, issues); a != b {
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
			eachDistortion(t, tg, func(w any, args []byte) { same(t, w, args, gk.Oracle().Causes(w)) })
		})
		for _, text := range []string{
			`{"9e9":"1\"2","n":12345678901234567890}`, `{"\\":"-0.5","n":1,"s":"\\\"3"}`,
			`{"a":[1e400],"n":2}`, `{"n":-0,"x":0.07}`, `{"e":100000000000000000001,"n":3}`, `{"s":"","x":1.5e-7}`,
		} {
			v := parsed(t, text)
			b := jsonvalue.MustMarshal(v)
			if a, w := gk.Oracle().DoublesDiffer(v, b, gk.Oracle().Causes(v)), gk.Oracle().DoublesDiffer(v, nil,
				gk.Oracle().Causes(v)); a != w {
				t.Errorf("%s: from the text %v, from the value %v", b, a, w)
			}
		}
	}
}

// TestHoldsAsDoubles: a distortion that fails where no number is looked at is invalid in the
// binary64 and the mixed readings too (so differ may skip validating them); with if/then/else,
// contains or unevaluated*, whose reach follows what numbers make other subschemas find, it is
// not trusted.
func TestHoldsAsDoubles(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":9007199254740993},` +
			`"x":{"type":"number","multipleOf":0.01},"s":{"type":"string","minLength":2},"t":{"type":"array",` +
			`"maxItems":2}},` +
			`"required":["n"],"additionalProperties":false}`,
		`{"type":"object","properties":{"k":{"allOf":[{"$ref":"#/$defs/d"}]},"m":{"type":"object","required":["a"],` +
			`"properties":{"a":{"exclusiveMaximum":1e300}}}},"$defs":{"d":{"type":"string","pattern":"^[a-z]+$"}},` +
			`"dependentRequired":{"m":["k"]}}`,
	}
	held := 0
	for _, schema := range schemas {
		gk, g, ctx := generated(t, schema)
		o := gk.Oracle()
		// check fails when w holds as doubles by its issues but is valid in another reading.
		check := func(t interface{ Fatalf(string, ...any) }, w any) {
			issues := gk.Oracle().Causes(w)
			if len(issues) == 0 || !oracle.HoldsAsDoubles(w, issues) {
				return
			}
			held++
			if o.ValidAsDoubles(w) {
				t.Fatalf("%s: holds as doubles by %v, but valid read as doubles", jsonvalue.MustMarshal(w), issues)
			}
			if o.ValidMixed(w) {
				t.Fatalf("%s: holds as doubles by %v, but valid in the mixed reading", jsonvalue.MustMarshal(w), issues)
			}
		}
		rapid.Check(t, func(t *rapid.T) {
			v, ok := g.Draw(t)
			if !ok {
				t.Fatalf("%s: no valid value", schema)
			}
			eachDistortion(t, ctx.Target(v), func(w any, _ []byte) { check(t, w) })
		})
		// Values at the edges of what doubles tell apart: the mutators avoid them, a gate's
		// callers do not.
		for _, text := range []string{`{"n":0.99999999999999999}`, `{"n":9007199254740993.5,"s":"a"}`,
			`{"n":1,"x":0.0099999999999999999}`, `{"n":1,"t":[1,2,3]}`, `{"n":1,"m":{"a":1e300}}`,
			`{"m":{"a":1.00000000000000000001e300}}`, `{"k":"a","m":{"a":1e300}}`, `{"n":1e-400,"z":1}`} {
			w := parsed(t, text)
			check(t, w)
		}
	}
	if held == 0 {
		t.Error("no distortion held as doubles: the property was never tried")
	}
	// Values valid as doubles (or in the mixed reading) whose exact failure looked robust by its
	// keyword, because the keywords that chose the failing subschema were not among the issues:
	// each must stay implementation-defined. Since the branch issues follow $ref, $dynamicRef,
	// draft 7's items, dependencies and definitions, a then or else among them is named by its
	// own issue; the unevaluatedProperties ones still look robust (robust), and only
	// doubles.conditional keeps them. (The first: exactly, n is below 5, the first branch
	// fails and y, evaluated by none, fails minLength; as a double n is 5, the first branch
	// evaluates y and the value is valid. Most of the others were found by a review.)
	for _, c := range []struct {
		schema, value string
		robust        bool // looks robust by its issues: only doubles.conditional keeps it
	}{
		{`{"anyOf":[{"properties":{"n":{"minimum":5},"y":true}},{}],"unevaluatedProperties":{"minLength":3}}`,
			`{"n":4.99999999999999999,"y":"ab"}`, true},
		{`{"if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},"then":{"$ref":"#/$defs/r"},` +
			`"$defs":{"r":{"required":["x"]}}}`, `{"n":5.00000000000000001}`, false},
		{`{"$ref":"#/$defs/c","$defs":{"c":{"if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},` +
			`"then":{"required":["x"]}}}}`, `{"n":5.00000000000000001}`, false},
		{`{"properties":{"s":{"type":"string"}},"$ref":"#/$defs/c",` +
			`"$defs":{"c":{"if":{"properties":{"n":{"maximum":5}}},"else":{"properties":{"s":{"maxLength":1}}}}}}`,
			`{"n":5.00000000000000001,"s":"ab"}`, false},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"array",` +
			`"items":[{"if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},"then":{"required":["x"]}}]}`,
			`[{"n":5.00000000000000001}]`, false},
		{`{"$schema":"http://json-schema.org/draft-07/schema#",` +
			`"dependencies":{"n":{"if":{"properties":{"n":{"exclusiveMinimum":5}}},"then":{"required":["x"]}}}}`,
			`{"n":5.00000000000000001}`, false},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","allOf":[{"$ref":"#/definitions/c"}],` +
			`"definitions":{"c":{"if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},` +
			`"then":{"minProperties":2}}}}`, `{"n":5.00000000000000001}`, false},
		{`{"if":{"properties":{"n":{"minimum":9007199254740993}},"required":["n"]},"then":{"$ref":"#/$defs/r"},` +
			`"$defs":{"r":{"required":["x"]}}}`, `{"n":9007199254740993.0}`, false},
		// A $dynamicRef that lands on a subschema known only by its $dynamicAnchor, which no
		// walk of the compiled schema reaches (the last: nothing else is number-sensitive).
		{`{"properties":{"n":{"minimum":0}},"$ref":"inner","$defs":{"inner":{"$id":"inner",` +
			`"$defs":{"x":{"$dynamicAnchor":"a"}},"$dynamicRef":"#a"},` +
			`"hidden":{"$dynamicAnchor":"a","if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},` +
			`"then":{"required":["x"]}}}}`, `{"n":5.00000000000000001}`, false},
		{`{"properties":{"n":{"minimum":0}},"$ref":"inner","$defs":{"inner":{"$id":"inner",` +
			`"$defs":{"x":{"$dynamicAnchor":"a"}},"$dynamicRef":"#a"},` +
			`"hidden":{"$dynamicAnchor":"a","anyOf":[{"properties":{"n":{"minimum":5},"y":true}},{}],` +
			`"unevaluatedProperties":{"minLength":3}}}}`, `{"n":4.99999999999999999,"y":"ab"}`, true},
		{`{"properties":{"n":{"minimum":0}},"$ref":"inner","$defs":{"inner":{"$id":"inner",` +
			`"$defs":{"x":{"$dynamicAnchor":"a"}},"$dynamicRef":"#a"},` +
			`"hidden":{"$dynamicAnchor":"a","if":{"properties":{"n":{"minimum":9007199254740993}},"required":["n"]},` +
			`"then":{"minProperties":2}}}}`, `{"n":9007199254740993.0}`, false},
		{`{"$ref":"inner","$defs":{"inner":{"$id":"inner","$defs":{"x":{"$dynamicAnchor":"a"}},"$dynamicRef":"#a"},` +
			`"hidden":{"$dynamicAnchor":"a","if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},` +
			`"then":{"required":["x"]}}}}`, `{"n":5.00000000000000001}`, false},
		// The same, the $dynamicRef under a $defs entry or a property named like data keywords,
		// and a $dynamicRef only in the 2020-12 meta-schema, which lands on the tool's anchor.
		{`{"$ref":"inner","$defs":{"const":{"$id":"inner","$defs":{"x":{"$dynamicAnchor":"a"}},"$dynamicRef":"#a"},` +
			`"hidden":{"$dynamicAnchor":"a","if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},` +
			`"then":{"required":["x"]}}}}`, `{"n":5.00000000000000001}`, false},
		{`{"properties":{"enum":{"$ref":"inner"}},"$defs":{"inner":{"$id":"inner",` +
			`"properties":{"examples":{"$defs":{"x":{"$dynamicAnchor":"a"}},"$dynamicRef":"#a"}}},` +
			`"hidden":{"$dynamicAnchor":"a","if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},` +
			`"then":{"required":["x"]}}}}`, `{"enum":{"examples":{"n":5.00000000000000001}}}`, false},
		{`{"$ref":"https://json-schema.org/draft/2020-12/schema","$defs":{"hidden":{"$dynamicAnchor":"meta",` +
			`"if":{"properties":{"n":{"exclusiveMinimum":5}},"required":["n"]},"then":{"required":["x"]}}}}`,
			`{"properties":{"p":{"n":5.00000000000000001}}}`, false},
	} {
		gk, v := gatekeeper(t, c.schema), parsed(t, c.value)
		issues := gk.Oracle().Causes(v)
		if len(issues) == 0 {
			t.Errorf("%s on %s: valid exactly: the example tests nothing", c.value, c.schema)
			continue
		}
		if got := oracle.HoldsAsDoubles(v, issues); got != c.robust {
			t.Errorf("%s on %s: looks robust by its issues (%v): %v, want %v", c.value, c.schema, issues, got, c.robust)
		}
		if !gk.Oracle().DoublesDiffer(v, nil, issues) {
			t.Errorf("%s on %s: valid in another reading, but not implementation-defined (issues %v)",
				c.value, c.schema, issues)
		}
	}
	// minContains lists the failures of the items that did not match under it: its keyword
	// keeps the value from holding.
	gk := gatekeeper(t, `{"type":"array","contains":{"required":["n"],"properties":{"n":{"maximum":5}}},`+
		`"minContains":1}`)
	v := parsed(t, `[{"n":5.00000000000000001},{}]`)
	if issues := gk.Oracle().Causes(v); oracle.HoldsAsDoubles(v, issues) {
		t.Errorf("%v: holds as doubles by its issues, though one item matches contains as a double", issues)
	}
}

// eachDistortion calls f with the value and text of each JSON distortion every mutator makes of
// tg.
func eachDistortion(t *rapid.T, tg *mutators.Target, f func(w any, args []byte)) {
	for _, m := range mutators.All() {
		mu, ok := m.Mutate(t, tg)
		if !ok || mu.Raw {
			continue
		}
		w, err := jsonvalue.Parse(mu.Args)
		if err != nil {
			t.Fatal(err)
		}
		f(w, mu.Args)
	}
}

// generated is the gatekeeper of schema, a generator of its valid values and a mutators'
// context on it.
func generated(t *testing.T, schema string) (*oracle.Gatekeeper, *generate.Generator, *mutators.Context) {
	t.Helper()
	gk := gatekeeper(t, schema)
	g, err := generate.New(gk)
	if err != nil {
		t.Fatal(err)
	}
	return gk, g, mutators.NewContext(gk, nil)
}

// gatekeeper compiles schema as the parameters of a tool named t.
func gatekeeper(t testing.TB, schema string) *oracle.Gatekeeper {
	t.Helper()
	gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
	if err != nil {
		t.Fatal(err)
	}
	return gk
}

// parsed is the value of the JSON text.
func parsed(t testing.TB, text string) any {
	t.Helper()
	v, err := jsonvalue.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
