package oracle

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// doublesOf compiles schema as the tool "t" and returns its binary64 readings, with value parsed
// and the issues the oracle finds in it.
func doublesOf(t *testing.T, schema, value string) (*doubles, any, []validator.Issue) {
	t.Helper()
	gk, err := Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
	if err != nil {
		t.Fatalf("%s: %v", schema, err)
	}
	v, err := jsonvalue.Parse([]byte(value))
	if err != nil {
		t.Fatal(err)
	}
	return newDoubles(gk.Oracle()), v, gk.Oracle().Causes(v)
}

// A number is divided only by the multipleOf values that may apply at its place: one that
// divides badly as doubles (0.07/0.01 is 7.000000000000001, 7/0.07 is 99.99999999999999) at a
// place no multipleOf reaches leaves the verdict alone, and the case keeps its verdict; at a
// place one reaches (directly, through $ref, items, prefixItems, a branch, a pattern,
// additionalProperties, dependentSchemas) it is still implementation-defined. Where the schemas
// cannot be told ($dynamicRef, a key regex dialects may match otherwise), every multipleOf is
// tried, as before.
func TestMultipleOfAtItsPlace(t *testing.T) {
	const (
		money = `{"type":"object","properties":{"price":{"type":"number","multipleOf":0.01},` +
			`"count":{"type":"integer"},"ratio":{"type":"number"}},"additionalProperties":false}`
		seven = `{"type":"object","properties":{"rate":{"type":"number","multipleOf":0.07},"count":{"type":"integer"}}}`
		lines = `{"$defs":{"money":{"type":"number","multipleOf":0.01}},"type":"object",` +
			`"properties":{"lines":{"type":"array","items":{"type":"object",` +
			`"properties":{"amount":{"$ref":"#/$defs/money"},"qty":{"type":"number"}}}}}}`
		pair = `{"type":"object","properties":{"pair":{"type":"array","prefixItems":[{"type":"number"},` +
			`{"multipleOf":0.01}]}}}`
		anyOf = `{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"number",` +
			`"multipleOf":0.01}]},"y":{"type":"number"}}}`
		not  = `{"type":"object","properties":{"x":{"not":{"multipleOf":0.01}},"y":{"type":"number"}}}`
		pats = `{"type":"object","patternProperties":{"^p_":{"multipleOf":0.01}},` +
			`"additionalProperties":{"type":"number"}}`
		// \p{L} is a letter class to ECMA-262 with the u flag, the text "p{L}" without it.
		dialect = `{"type":"object","patternProperties":{"^\\p{L}$":{"multipleOf":0.01}},` +
			`"additionalProperties":{"type":"number"}}`
		addl = `{"type":"object","properties":{"n":{"type":"number"}},"additionalProperties":{"multipleOf":0.01}}`
		deps = `{"type":"object","properties":{"c":{"type":"number"}},` +
			`"dependentSchemas":{"a":{"properties":{"b":{"multipleOf":0.01}}}}}`
		tree = `{"$defs":{"tree":{"type":"object","properties":{"v":{"multipleOf":0.01},"w":{"type":"number"},` +
			`"kids":{"type":"array","items":{"$ref":"#/$defs/tree"}}}}},"$ref":"#/$defs/tree"}`
		dyn = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$dynamicAnchor":"node","type":"object",` +
			`"properties":{"n":{"multipleOf":0.01},"w":{"type":"number"},"kids":{"type":"array",` +
			`"items":{"$dynamicRef":"#node"}}}}`
	)
	for _, tc := range []struct {
		schema, value string
		either        bool
	}{
		// The brief's tool: multipleOf 0.01 on price only.
		{money, `{"ratio":0.07}`, false},
		{money, `{"price":0,"count":3,"ratio":0.29}`, false},
		{money, `{"price":0.07}`, true},
		{money, `{"price":0.07,"count":3}`, true},
		// Invalid (a key too many): the division at price may turn the verdict, at ratio not.
		{money, `{"price":0.07,"zz":1}`, true},
		{money, `{"ratio":0.07,"zz":1}`, false},
		// An integer that divides badly by 0.07 (7/0.07 is 99.99999999999999), at a place 0.07
		// does not reach, and at one it does.
		{seven, `{"count":7}`, false},
		{seven, `{"rate":7}`, true},
		// $ref inside items.
		{lines, `{"lines":[{"amount":0,"qty":0.07}]}`, false},
		{lines, `{"lines":[{"qty":1},{"amount":0.07}]}`, true},
		// prefixItems: only the second item is divided; no schema applies after the prefix.
		{pair, `{"pair":[0.07,0]}`, false},
		{pair, `{"pair":[0,0.07]}`, true},
		{pair, `{"pair":[0,0,0.07]}`, false},
		// Every branch at the place counts, whichever the value takes; not too.
		{anyOf, `{"x":0.07}`, true},
		{anyOf, `{"x":"s","y":0.07}`, false},
		{not, `{"x":0.07}`, true},
		{not, `{"y":0.07}`, false},
		// patternProperties, additionalProperties; a key dialects may match otherwise gets both.
		{pats, `{"p_a":0.07}`, true},
		{pats, `{"q":0.07}`, false},
		{pats, `{"é":0.07}`, true},
		// A pattern dialects read otherwise: every multipleOf is tried under the object.
		{dialect, `{"pL":0.07}`, true},
		{addl, `{"n":0.07}`, false},
		{addl, `{"m":0.07}`, true},
		// dependentSchemas apply to the object they sit at, whether the key is there or not.
		{deps, `{"a":1,"b":0.07}`, true},
		{deps, `{"a":1,"c":0.07}`, false},
		// A recursive $ref, three levels down.
		{tree, `{"kids":[{"kids":[{"w":0.07}]}]}`, false},
		{tree, `{"kids":[{"kids":[{"v":0.07}]}]}`, true},
		// Under a $dynamicRef every multipleOf is tried; above it, the places hold.
		{dyn, `{"w":0.07}`, false},
		{dyn, `{"kids":[{"w":0.07}]}`, true},
	} {
		d, v, issues := doublesOf(t, tc.schema, tc.value)
		if got := d.differ(v, nil, issues); got != tc.either {
			t.Errorf("%s on %s: either %v, want %v (issues %v)", tc.value, tc.schema, got, tc.either, issues)
		}
		// The division itself, apart from the other readings (which mark most of these too:
		// 0.07 is no multiple of the double nearest 0.01).
		if got := quotientAt(d.places, v, d.multiples); got != tc.either {
			t.Errorf("%s on %s: division differs %v, want %v", tc.value, tc.schema, got, tc.either)
		}
		// Every case here has a number that divides badly by some multipleOf of the schema:
		// pairing each number with every multipleOf, as the rule did, marks them all.
		if !anyQuotient(v, d.multiples) {
			t.Errorf("%s on %s: no number divides badly by any multipleOf; the case shows nothing", tc.value, tc.schema)
		}
	}
}

// Precise pairing marks a subset of what pairing every number with every multipleOf marked:
// on values drawn for tools with decimal multipleOf at some places, it marks no value the
// whole-schema pairing does not, and leaves fewer marked.
func TestMultipleOfPairingIsASubset(t *testing.T) {
	gk, err := Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(
		`{"type":"object","properties":{"price":{"type":"number","multipleOf":0.01},"count":{"type":"integer"},` +
			`"ratio":{"type":"number"},` +
			`"items":{"type":"array","items":{"type":"object","properties":{"qty":{"type":"number","multipleOf":0.1},` +
			`"w":{"type":"number"}}}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	d := newDoubles(gk.Oracle())
	nums := []string{"0", "3", "0.07", "0.29", "0.3", "0.5", "1.1", "2.01", "12.34", "-0.57"}
	old, now := 0, 0
	for i, a := range nums {
		for j, b := range nums {
			c := nums[(i*7+j*3)%len(nums)]
			text := `{"price":` + a + `,"ratio":` + b + `,"items":[{"qty":` + c + `,"w":` + a + `}]}`
			v, err := jsonvalue.Parse([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			wide := anyQuotient(v, d.multiples)
			precise := quotientAt(d.places, v, d.multiples)
			if precise && !wide {
				t.Errorf("%s: marked at its place but not by every multipleOf", text)
			}
			if wide {
				old++
			}
			if precise {
				now++
			}
		}
	}
	if now >= old {
		t.Errorf("precise pairing marked %d of %d values, the whole-schema pairing %d: no precision won", now,
			len(nums)*len(nums), old)
	}
	t.Logf("values whose division differs: %d of %d paired by place, %d paired with every multipleOf", now,
		len(nums)*len(nums), old)
}

// A value that fails by a bound can fail, read as doubles, by a multipleOf instead, which
// floating-point division may turn: 1000000000000000.001 breaks a maximum of 1e15, but as a
// double it is 1e15, within the maximum and no multiple of the double nearest 0.001, though
// 1e15/0.001 divides to 1e18 (Ajv, TypeBox and jsonschema-go accept it). Such a case is
// implementation-defined, whatever keyword reports it and wherever it is; one whose numbers
// read the same as doubles keeps its verdict.
func TestFailureTurnsIntoAMultipleOf(t *testing.T) {
	obj := func(props string) string {
		return `{"type":"object","properties":` + props + `,"additionalProperties":false}`
	}
	const (
		upper = `{"type":"object","properties":{"f":{"type":"number","multipleOf":0.001,"maximum":1e15}},` +
			`"required":["f"],"additionalProperties":false}`
		lower = `{"type":"object","properties":{"f":{"type":"number","multipleOf":0.001,"minimum":-1e15}},` +
			`"required":["f"],"additionalProperties":false}`
	)
	for _, tc := range []struct {
		schema, value string
		either        bool
	}{
		{upper, `{"f":1000000000000000.001}`, true},
		{lower, `{"f":-1000000000000000.001}`, true},
		// The same inside anyOf, oneOf, if/then and items, and valid cases that floating-point
		// division fails (found by an adversarial run against Ajv, TypeBox and jsonschema-go).
		{obj(`{"f":{"anyOf":[{"type":"number","multipleOf":0.001,"maximum":1e15},{"type":"string"}]}}`),
			`{"f":1000000000000000.001}`, true},
		{obj(`{"f":{"oneOf":[{"type":"number","multipleOf":0.001,"maximum":1e15},{"type":"string"}]}}`),
			`{"f":1000000000000000.001}`, true},
		{obj(`{"f":{"not":{"type":"number","multipleOf":0.001,"minimum":1e15}}}`), `{"f":999999999999999.999}`, true},
		{obj(`{"f":{"if":{"type":"number","minimum":1e15},"then":{"type":"number","minimum":9007199254740992,` +
			`"multipleOf":0.001}}}`), `{"f":9007199254740991.999}`, true},
		{obj(`{"a":{"type":"number","multipleOf":1e-5},"b":{"anyOf":[{"type":"number","minimum":-1e16},` +
			`{"type":"string"}]}}`), `{"a":-225,"b":-10000000000000000.0009765625}`, true},
		{obj(`{"f":{"oneOf":[{"type":"integer","multipleOf":1e-5},{"type":"number","maximum":1e15}]}}`),
			`{"f":999999999999999.999}`, true},
		{obj(`{"f":{"type":"array","items":{"anyOf":[{"type":"number","multipleOf":0.001,"maximum":1e15},` +
			`{"type":"string"}]}}}`), `{"f":[1000000000000000.001]}`, true},
		// Judged on shortest decimals (gates that divide decimals): 9999999999999999 reads as
		// 1e16, and 490 is a multiple of 0.07, so the case is valid there.
		{obj(`{"a":{"type":"number","multipleOf":0.07},"b":{"type":"number","minimum":1e16}}`),
			`{"a":490,"b":9999999999999999}`, true},
		// python-jsonschema divides by 7 with a remainder and by 0.1 in floating point, both
		// in one value: 7e22 fails the first (as a double its remainder is 2) and meets the
		// second, so the not fails and the valid 7e22 is rejected.
		{obj(`{"p0":{"const":7e22,"anyOf":[{"multipleOf":7},{"not":{"multipleOf":0.1}}]}}`), `{"p0":7e22}`, true},
		{obj(`{"p0":{"type":"number","minimum":1e+17,"maximum":1e+18,"oneOf":[{"multipleOf":6},{"multipleOf":1.5}]},` +
			`"p1":{"type":"number","minimum":9e+21,"maximum":1e+23,"anyOf":[{"multipleOf":0.1},` +
			`{"not":{"multipleOf":6}}]}}`), `{"p0":999999999999999999,"p1":8999999999999999999999.9}`, true},
		// The same multipleOf reached only by a $dynamicRef (known by its $dynamicAnchor), and
		// one in a default that a $ref points into (found by review).
		{`{"$id":"https://x.example/root.json","type":"object","$defs":{"item":{"$dynamicAnchor":"item",` +
			`"anyOf":[{"multipleOf":7},{"not":{"multipleOf":0.1}}]},"list":{"$id":"list",` +
			`"$defs":{"item":{"$dynamicAnchor":"item"}},"$dynamicRef":"#item"}},"properties":{"a":{"$ref":"list"}}}`,
			`{"a":7e22}`, true},
		{`{"type":"object","properties":{"a":{"$ref":"#/properties/b/default"},"b":{"default":{"multipleOf":3,` +
			`"maximum":1e22}}}}`, `{"a":10000000000000000000002}`, true},
		// Broken by a margin a double sees, and a multiple either way: it holds.
		{upper, `{"f":1000000000000001}`, false},
		// A key too many, no number read otherwise: it holds.
		{upper, `{"f":1,"g":2}`, false},
	} {
		d, v, issues := doublesOf(t, tc.schema, tc.value)
		if got := d.differ(v, nil, issues); got != tc.either {
			t.Errorf("%s on %s: either %v, want %v (issues %v)", tc.value, tc.schema, got, tc.either, issues)
		}
		// The text path (what the mutators call) must agree with the walk.
		if got := d.differ(v, jsonvalue.MustMarshal(v), issues); got != tc.either {
			t.Errorf("%s on %s, from its text: either %v, want %v", tc.value, tc.schema, got, tc.either)
		}
	}
}

// serde_json reads an integer within 64 bits exactly and a longer one as a double: a value can
// be invalid exactly, as doubles and in the mixed reading, each for its own reason, and valid
// only so. 9007199254740993 is past an exclusiveMinimum of 9007199254740992 except as a double;
// 18446744073709551618 breaks a maximum of 18446744073709551617 except as a double.
func TestSerdeReading(t *testing.T) {
	const schema = `{"type":"object","properties":{"x":{"exclusiveMinimum":9007199254740992},` +
		`"y":{"maximum":18446744073709551617}}}`
	for _, tc := range []struct {
		value  string
		either bool
	}{
		{`{"x":9007199254740993,"y":18446744073709551618}`, true},
		{`{"x":9007199254740993,"y":18446744073709571618}`, false}, // past the maximum as a double too
	} {
		d, v, issues := doublesOf(t, schema, tc.value)
		if len(issues) == 0 {
			t.Fatalf("%s: valid; the case must be invalid", tc.value)
		}
		if got := d.differ(v, nil, issues); got != tc.either {
			t.Errorf("%s: either %v, want %v (issues %v)", tc.value, got, tc.either, issues)
		}
	}
}

// anyQuotient reports whether some number in v divides differently by some of ms.
func anyQuotient(v any, ms []*big.Rat) bool { return someNumber(v, ms, quotientDiffers) }
