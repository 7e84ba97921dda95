package oracle_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

var readTool = tool.Tool{Name: "read", Parameters: json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "minLength": 1},
		"limit": {"type": "integer", "minimum": 1, "maximum": 2000},
		"mode": {"enum": ["text", "binary"]},
		"a/b~c": {"type": "boolean"},
		"opts": {"type": "object", "properties": {"depth": {"type": "integer"}}, "required": ["depth"]}
	},
	"required": ["path"],
	"additionalProperties": false
}`)}

func compile(t *testing.T, tl tool.Tool) *oracle.Gatekeeper {
	t.Helper()
	g, err := oracle.Compile(tl)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// paths returns "keyword@path" for every issue.
func paths(issues []validator.Issue) []string {
	var out []string
	for _, is := range issues {
		out = append(out, is.Keyword+"@"+is.Path)
	}
	return out
}

func TestReferenceContract(t *testing.T) {
	g := compile(t, readTool)
	tests := []struct {
		name string
		args string
		want []string // keyword@path of every issue; nil: valid
	}{
		{"valid", `{"path":"README.md","limit":20}`, nil},
		{"stringified number", `{"path":"README.md","limit":"20"}`, []string{"type@/limit"}},
		{"missing required at its own path", `{"limit":5}`, []string{"required@/path"}},
		{"nested missing required", `{"path":"a","opts":{}}`, []string{"required@/opts/depth"}},
		{"hallucinated key", `{"path":"a","timeout":5}`, []string{"additionalProperties@/timeout"}},
		{"escaped pointer", `{"path":"a","a/b~c":"yes"}`, []string{"type@/a~1b~0c"}},
		{"enum", `{"path":"a","mode":"Text"}`, []string{"enum@/mode"}},
		{"bounds", `{"path":"a","limit":0}`, []string{"minimum@/limit"}},
		{"float for integer", `{"path":"a","limit":1.5}`, []string{"type@/limit"}},
		{"1.0 is an integer", `{"path":"a","limit":1.0}`, nil},
		{"null root", `null`, []string{"type@"}},
		{"array root", `[]`, []string{"type@"}},
		{"double-encoded root", `"[]"`, []string{"type@"}},
		{"string-encoded object", `"{\"path\":\"a\"}"`, []string{"type@"}},
		{"truncated", `{"path":"a"`, []string{"json@"}},
		{"trailing comma", `{"path":"a",}`, []string{"json@"}},
		{"single quotes", `{'path':'a'}`, []string{"json@"}},
		{"python literal", `{"path":"a","a/b~c":True}`, []string{"json@"}},
		{"NaN", `{"path":"a","limit":NaN}`, []string{"json@"}},
		{"comment", `{"path":"a"} // done`, []string{"json@"}},
		{"duplicate keys", `{"path":"a","path":"b"}`, []string{"json@"}},
		{"trailing data", `{"path":"a"} {"path":"b"}`, []string{"json@"}},
		{"markdown fence", "```json\n{\"path\":\"a\"}\n```", []string{"json@"}},
		{"byte order mark", "\ufeff{\"path\":\"a\"}", []string{"json@"}},
		{"invalid UTF-8", "{\"path\":\"a\xff\"}", []string{"json@"}},
		{"empty", ``, []string{"json@"}},
		{"several issues", `{"limit":"x","mode":"z"}`, []string{"enum@/mode", "required@/path", "type@/limit"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := g.Check(context.Background(), []byte(tc.args))
			_, err := g.Parse([]byte(tc.args))
			if tc.want == nil {
				if !v.Valid || err != nil {
					t.Fatalf("rejected a valid call: %v", err)
				}
				return
			}
			if v.Valid || err == nil {
				t.Fatal("accepted an invalid call")
			}
			var verr *validator.Error
			if !errors.As(err, &verr) || verr.Tool != "read" {
				t.Fatalf("error %T %v is not a *validator.Error for tool read", err, err)
			}
			got := paths(verr.Issues)
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMessagesNeverContainArgumentValues(t *testing.T) {
	const secret = "SECRET-CANARY-7f3a"
	g := compile(t, tool.Tool{Name: "t", Parameters: json.RawMessage(`{
		"type":"object","additionalProperties":false,
		"properties":{
			"a":{"type":"integer"}, "b":{"enum":["x","y"]}, "c":{"pattern":"^[0-9]+$"},
			"d":{"const":"fixed"}, "e":{"format":"email"}, "f":{"maxLength":3},
			"g":{"type":"array","uniqueItems":true}, "h":{"not":{"type":"string"}},
			"i":{"anyOf":[{"type":"integer"},{"type":"boolean"}]}
		}}`)})
	for _, args := range []string{
		`{"a":"` + secret + `"}`, `{"b":"` + secret + `"}`, `{"c":"` + secret + `"}`,
		`{"d":"` + secret + `"}`, `{"e":"` + secret + `"}`, `{"f":"` + secret + `"}`,
		`{"g":["` + secret + `","` + secret + `"]}`, `{"h":"` + secret + `"}`, `{"i":"` + secret + `"}`,
		`{"` + secret + `":1}`, `{"a":"` + secret, `["` + secret + `"]`, `"` + secret + `"`,
	} {
		_, err := g.Parse([]byte(args))
		if err == nil {
			t.Fatalf("%s accepted", args)
		}
		var verr *validator.Error
		errors.As(err, &verr)
		for _, is := range verr.Issues {
			if strings.Contains(is.Message, secret) {
				t.Errorf("%s: message %q leaks the argument value", args, is.Message)
			}
		}
		if strings.Contains(verr.Correction(), secret+"\"") {
			t.Errorf("%s: correction leaks the value:\n%s", args, verr.Correction())
		}
	}
}

func TestValidateDoesNotMutate(t *testing.T) {
	g := compile(t, readTool)
	v := map[string]any{"path": "a", "limit": 20, "mode": "text", "opts": map[string]any{"depth": json.Number("2")}}
	before := jsonvalue.MustClone(v)
	if err := g.Validate(v); err != nil {
		t.Fatal(err)
	}
	after := jsonvalue.MustClone(v)
	if !jsonvalue.Equal(before, after) || v["limit"] != 20 {
		t.Fatalf("Validate changed its input: %v", v)
	}
	v["limit"] = "20"
	if err := g.Validate(v); err == nil {
		t.Fatal("Validate accepted a string for an integer")
	}
}

func TestCompileErrorsAreConfigErrors(t *testing.T) {
	for name, params := range map[string]string{
		"not a schema":     `{"type": 5}`,
		"remote ref":       `{"$ref": "https://example.com/schema.json"}`,
		"relative file":    `{"$ref": "other.json#/x"}`,
		"not ECMA-262":     `{"type":"string","pattern":"^(?P<x>a)$"}`,
		"unresolvable ref": `{"$ref": "#/$defs/missing"}`,
		"array":            `[1,2]`,
	} {
		_, err := oracle.Compile(tool.Tool{Name: name, Parameters: json.RawMessage(params), Source: "f.json#3"})
		var ce *validator.ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: got %v, want a *ConfigError", name, err)
			continue
		}
		if ce.Tool != name || !strings.Contains(err.Error(), "f.json#3") {
			t.Errorf("%s: error %q does not name the tool and where it is", name, err)
		}
	}
}

// TestSizesBeyondInt64: a size keyword whose count does not fit in an int64 would wrap around
// in santhosh-tekuri/jsonschema (maxLength 2^64 reads as 0, 1e19 as a negative count, and every
// string is rejected), so the tool is refused with the keyword and its place; counts that fit,
// and the same keys inside enum, const, default and examples (data, not schemas), are fine.
func TestSizesBeyondInt64(t *testing.T) {
	for params, want := range map[string]string{
		`{"properties":{"s":{"maxLength":18446744073709551616}}}`: "maxLength is 18446744073709551616 at " +
			"/properties/s/maxLength",
		`{"items":[{"type":"string"},{"minItems":1e19}]}`:            "minItems is 1e19 at /items/1/minItems",
		`{"$defs":{"d":{"maxProperties":99999999999999999999}}}`:     "at /$defs/d/maxProperties",
		`{"properties":{"a":{"maxLength":9223372036854775807}}}`:     "",
		`{"const":{"maxLength":18446744073709551616},"maxLength":3}`: "",
		`{"properties":{"maxItems":{"type":"integer"}}}`:             "",
		`{"properties":{"const":{"maxLength":18446744073709551616}}}`: "maxLength is 18446744073709551616 at " +
			"/properties/const/maxLength",
		`{"$defs":{"enum":{"minItems":1e20}}}`: "minItems is 1e20 at /$defs/enum/minItems",
	} {
		_, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(params)})
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v, want it compiled", params, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want one saying %q", params, err, want)
		}
	}
	// The largest count the check lets through is read as written.
	g := compile(t, tool.Tool{Name: "fits",
		Parameters: json.RawMessage(`{"properties":{"s":{"maxLength":9223372036854775807,"minLength":2}}}`)})
	if !g.Valid(map[string]any{"s": "ab"}) || g.Valid(map[string]any{"s": "a"}) {
		t.Errorf("maxLength 2^63-1 with minLength 2: \"ab\" valid %v, \"a\" valid %v; want true, false",
			g.Valid(map[string]any{"s": "ab"}), g.Valid(map[string]any{"s": "a"}))
	}
}

func TestDraft07(t *testing.T) {
	g := compile(t, tool.Tool{Name: "d7", Parameters: json.RawMessage(`{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type": "object",
		"properties": {"list": {"type": "array", "items": [{"type": "string"}], "additionalItems": false}},
		"definitions": {"n": {"type": "integer"}}
	}`)})
	if _, err := g.Parse([]byte(`{"list":["a"]}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Parse([]byte(`{"list":["a", 1]}`)); err == nil {
		t.Fatal("draft-07 additionalItems not applied")
	}
}

func TestCorrection(t *testing.T) {
	g := compile(t, readTool)
	_, err := g.Parse([]byte(`{"limit":"20"}`))
	var verr *validator.Error
	errors.As(err, &verr)
	c := verr.Correction()
	for _, want := range []string{`tool "read"`, "`/limit`: must be integer, found string", "`/path`: is required"} {
		if !strings.Contains(c, want) {
			t.Errorf("correction lacks %q:\n%s", want, c)
		}
	}
}

func TestFunc(t *testing.T) {
	v := validator.Func("upper", func(tl tool.Tool) (func([]byte) (any, error), error) {
		return func(args []byte) (any, error) {
			if strings.Contains(string(args), "bad") {
				return nil, &validator.Error{Tool: tl.Name, Issues: []validator.Issue{{Path: "/x", Message: "bad"}}}
			}
			return map[string]any{"n": 1}, nil
		}, nil
	})
	gate, err := v.Compile(readTool)
	if err != nil {
		t.Fatal(err)
	}
	got := gate.Check(context.Background(), []byte(`{"bad":1}`))
	if got.Valid || len(got.Issues) != 1 || got.Issues[0].Path != "/x" {
		t.Fatalf("got %+v", got)
	}
	got = gate.Check(context.Background(), []byte(`{}`))
	if !got.Valid || !got.HasValue || !jsonvalue.Equal(got.Value, map[string]any{"n": json.Number("1")}) {
		t.Fatalf("got %+v", got)
	}
}

// santhosh v6.0.3 reuses a slice for the location of propertyNames errors that later validation
// of sibling properties overwrites; the reference must still say where the bad name is.
func TestPropertyNamesLocation(t *testing.T) {
	g := compile(t, tool.Tool{Name: "h", Parameters: json.RawMessage(`{
		"type":"object",
		"properties":{
			"a":{"type":"string"},"headers":{"type":"object","propertyNames":{"pattern":"^[a-z]+$"}},
			"b":{"type":"object"},"c":{"type":"integer"},"d":{"type":"array"}
		}}`)})
	for i := 0; i < 50; i++ {
		_, err := g.Parse([]byte(`{"a":"x","b":{"k":1},"c":1,"d":[1,2],"headers":{"ok":"1","Bad Name":"2"}}`))
		var verr *validator.Error
		if !errors.As(err, &verr) {
			t.Fatal("accepted")
		}
		if got := paths(verr.Issues); !cmp.Equal(got, []string{"propertyNames@/headers/Bad Name"}) {
			t.Fatalf("issues %v", got)
		}
	}
}

func TestECMAEscapesInPatterns(t *testing.T) {
	gk, err := oracle.Compile(tool.Tool{Name: "name",
		Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"string",` +
			`"pattern":"^[\\u4e00-\\u9fa5]+$"}}}`)})
	if err != nil {
		t.Fatalf("a pattern with \\u escapes: %v", err)
	}
	if _, err := gk.Parse([]byte(`{"n":"中文"}`)); err != nil {
		t.Errorf("CJK name rejected: %v", err)
	}
	if _, err := gk.Parse([]byte(`{"n":"abc"}`)); err == nil {
		t.Error("a Latin name accepted")
	}
}

// Errors gives the errors of the value: a failing anyOf once at its place (Causes adds its
// branches), and the failure of the else an if selects, where it fails.
func TestErrors(t *testing.T) {
	gk, err := oracle.Compile(tool.Tool{Name: "w", Parameters: json.RawMessage(`{"type":"object",
		"properties":{"m":{"anyOf":[{"type":"string"},{"type":"object","required":["k"]}]},"n":{"type":"integer"}},
		"if":{"required":["e"]},"else":{"properties":{"n":{"maximum":10}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	places := func(is []validator.Issue) string {
		var out []string
		for _, i := range is {
			out = append(out, i.Path+" "+i.Keyword)
			if i.Message != "" {
				t.Errorf("Errors gives a message: %v", i)
			}
		}
		return strings.Join(out, ", ")
	}
	v, _ := jsonvalue.Parse([]byte(`{"m":{},"n":20}`))
	if got, want := places(gk.Oracle().Errors(v)), "/m anyOf, /n maximum"; got != want {
		t.Errorf("Errors: %s, want %s", got, want)
	}
	if got := places(gk.Oracle().Causes(v)); !strings.Contains(got, "/m/k required") {
		t.Errorf("Causes: %s, want the branch's /m/k too", got)
	}
	v, _ = jsonvalue.Parse([]byte(`{"e":1,"n":20}`))
	if is := gk.Oracle().Errors(v); is != nil {
		t.Errorf("Errors of a valid value: %v", is)
	}
}

// TestCausesNameTheBranch: an error inside the then or else of an if also gives an issue with
// that keyword at the object that holds the if (where Ajv and TypeBox say "must match "then"
// schema"), nested or not, and through a $ref (the target applies where the $ref is), but not
// for a $ref to a then itself, which no if chose.
func TestCausesNameTheBranch(t *testing.T) {
	gk, err := oracle.Compile(tool.Tool{Name: "b", Parameters: json.RawMessage(`{"type":"object",
		"properties":{"replicas":{"type":"integer"},"job":{"type":"object",
			"if":{"required":["prod"]},"then":{"properties":{"n":{"minimum":2}}},` +
		`"else":{"properties":{"n":{"maximum":10}}}},
			"ref":{"$ref":"#/$defs/r"},
			"refs":{"type":"array","items":{"$ref":"#/$defs/r"}},
			"borrowed":{"$ref":"#/$defs/r/then"},
			"lent":{"if":{"required":["a"]},"then":{"$ref":"#/$defs/q"}}},
		"if":{"properties":{"env":{"const":"prod"}},"required":["env"]},
		"then":{"properties":{"replicas":{"minimum":2}}},
		"$defs":{"r":{"if":{"required":["a"]},"then":{"required":["b"]}},"q":{"required":["b"]}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want, not string }{
		{`{"env":"prod","replicas":1}`, " then", ""},
		{`{"job":{"prod":1,"n":1}}`, "/job then", " then"},
		{`{"job":{"n":11}}`, "/job else", "/job then"},
		{`{"ref":{"a":1}}`, "/ref then", " then"},
		{`{"refs":[{"b":1},{"a":1}]}`, "/refs/1 then", "/refs then"},
		{`{"borrowed":{"a":1}}`, "", "then"},        // the then of $defs/r, reached by a $ref alone
		{`{"lent":{"a":1}}`, "/lent then", " then"}, // a then that is a $ref
	} {
		checkCauses(t, gk, tc.args, tc.want, tc.not)
	}
	// Through a $ref back to the root, the root's if applies where the $ref is.
	rec, err := oracle.Compile(tool.Tool{Name: "r", Parameters: json.RawMessage(`{"type":"object",
		"properties":{"kid":{"$ref":"#"},"kind":{"type":"string"},"size":{"type":"integer"}},
		"if":{"properties":{"kind":{"const":"big"}},"required":["kind"]},
		"then":{"properties":{"size":{"minimum":10}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	checkCauses(t, rec, `{"kind":"big","size":1}`, " then", "")
	checkCauses(t, rec, `{"kid":{"kid":{"kind":"big","size":1}}}`, "/kid/kid then", " then")
	// Draft 7: definitions, an array of items and a schema in dependencies.
	d7, err := oracle.Compile(tool.Tool{Name: "d7", Parameters: json.RawMessage(`{
		"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
		"properties":{"pair":{"type":"array","items":[{"type":"string"},{"$ref":"#/definitions/c"}]},
			"dep":{"type":"object","dependencies":{"x":{"if":{"required":["y"]},"then":{"required":["z"]}}}}},
		"definitions":{"c":{"if":{"required":["a"]},"then":{"required":["b"]},"else":{"required":["c"]}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	checkCauses(t, d7, `{"pair":["s",{"a":1}]}`, "/pair/1 then", "/pair then")
	checkCauses(t, d7, `{"pair":["s",{}]}`, "/pair/1 else", "")
	checkCauses(t, d7, `{"dep":{"x":1,"y":2}}`, "/dep then", " then")
	// A then that fails by a propertyNames inside it (santhosh reports that error apart).
	pn, err := oracle.Compile(tool.Tool{Name: "pn", Parameters: json.RawMessage(`{"type":"object",
		"if":{"required":["strict"]},
		"then":{"properties":{"opts":{"type":"object","propertyNames":{"maxLength":3}}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	checkCauses(t, pn, `{"strict":true,"opts":{"long":1}}`, " then", "")
	deep, err := oracle.Compile(tool.Tool{Name: "deep", Parameters: json.RawMessage(`{"type":"object",
		"properties":{"a":{"type":"object","if":{"required":["strict"]},
			"then":{"properties":{"opts":{"type":"object","propertyNames":{"maxLength":3}}}}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	checkCauses(t, deep, `{"a":{"strict":true,"opts":{"long":1}}}`, "/a then", " then")
}

// checkCauses fails unless Causes of args has the issue want ("PATH KEYWORD", or none of then
// when want is empty) and not the issue not, and Issues has no branch issue.
func checkCauses(t *testing.T, gk *oracle.Gatekeeper, args, want, not string) {
	t.Helper()
	v, _ := jsonvalue.Parse([]byte(args))
	var got []string
	for _, is := range gk.Oracle().Causes(v) {
		got = append(got, is.Path+" "+is.Keyword)
	}
	all := "," + strings.Join(got, ",") + ","
	if want != "" && !strings.Contains(all, ","+want+",") {
		t.Errorf("%s: Causes %v, want %q among them", args, got, want)
	}
	if not != "" && strings.Contains(all, ","+not+",") || want == "" && strings.Contains(all, " then,") {
		t.Errorf("%s: Causes %v, did not want %q", args, got, not)
	}
	if is := gk.Issues(v); len(is) == 0 || strings.Contains(fmt.Sprint(is), "then") {
		t.Errorf("%s: Issues %v: want the error inside, and no branch issue (the gate's own report is unchanged)",
			args, is)
	}
}

// FloatDivision divides as doubles do, wherever MarkFloatDivisions marked a multipleOf (here
// under anyOf and items):
// 1000000000000000.0005 is a multiple of 0.001 in floating point (as a double it is 1e15), not
// exactly; 0.07 is a multiple of 0.01 exactly, not in floating point (7.000000000000001).
func TestFloatDivision(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"anyOf":[{"type":"number","multipleOf":0.001},{"type":"string"}]},` +
		`"b":{"type":"array","items":{"multipleOf":0.01}}}}`
	tl := tool.Tool{Name: "t", Parameters: json.RawMessage(schema)}
	exact, err := oracle.Compile(tl)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonvalue.Parse(tl.Parameters)
	if err != nil {
		t.Fatal(err)
	}
	oracle.MarkFloatDivisions(doc, nil)
	marked := tl
	marked.Parameters = jsonvalue.MustMarshal(doc)
	float, err := oracle.Compile(marked, oracle.FloatDivision(false))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args         string
		exact, float bool
	}{
		{`{"a":1000000000000000.0005}`, false, true},
		{`{"b":[0.07]}`, true, false},
		{`{"a":0.5,"b":[0.5]}`, true, true},
		{`{"a":"s","b":[0.005]}`, false, false},
	} {
		v, err := jsonvalue.Parse([]byte(c.args))
		if err != nil {
			t.Fatal(err)
		}
		if got := exact.Valid(v); got != c.exact {
			t.Errorf("%s: exact valid %v, want %v", c.args, got, c.exact)
		}
		if got := float.Valid(v); got != c.float {
			t.Errorf("%s: in floating point valid %v, want %v", c.args, got, c.float)
		}
	}
}

// MarkFloatDivisions renames the multipleOf keywords float picks, and nothing else: not a
// property named multipleOf, nor data.
func TestMarkFloatDivisions(t *testing.T) {
	doc, err := jsonvalue.Parse([]byte(`{"properties":{"multipleOf":{"multipleOf":7},"x":{"multipleOf":0.5,` +
		`"enum":[{"multipleOf":1.5}]}},"$defs":{"d":{"anyOf":[{"multipleOf":2.5}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !oracle.MarkFloatDivisions(doc, func(n json.Number) bool { return strings.ContainsAny(string(n), ".eE") }) {
		t.Errorf("no reference into data, but the marking says it is incomplete")
	}
	got := string(jsonvalue.MustMarshal(doc))
	want := `{"$defs":{"d":{"anyOf":[{"x-toolproof-float-multipleOf":2.5}]}},` +
		`"properties":{"multipleOf":{"multipleOf":7},"x":{"enum":[{"multipleOf":1.5}],` +
		`"x-toolproof-float-multipleOf":0.5}}}`
	if got != want {
		t.Errorf("marked:\n got %s\nwant %s", got, want)
	}
	// A $ref into a default reaches a schema the marking leaves alone; one to a property
	// named default does not.
	for ref, complete := range map[string]bool{"#/properties/b/default": false, "#/properties/default": true,
		"#/$defs/enum": true, "#/properties/b/enum/0": false} {
		doc, err := jsonvalue.Parse([]byte(`{"properties":{"a":{"$ref":"` + ref + `"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := oracle.MarkFloatDivisions(doc, nil); got != complete {
			t.Errorf("$ref %s: complete %v, want %v", ref, got, complete)
		}
	}
}
