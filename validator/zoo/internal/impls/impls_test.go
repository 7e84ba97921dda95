package impls

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

const readSchema = `{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1}},` +
	`"required":["path"],"additionalProperties":false}`

const canary = "SECRET-CANARY-42"

type result struct {
	ID     int             `json:"id"`
	Valid  *bool           `json:"valid"`
	Issues []server.Issue  `json:"issues"`
	Value  json.RawMessage `json:"value"`
	Error  string          `json:"error"`
}

func (r result) String() string {
	b, _ := json.Marshal(r)
	return string(b)
}

func (r result) hasIssueAt(path string) bool {
	for _, is := range r.Issues {
		if is.Path == path {
			return true
		}
	}
	return false
}

// session drives the protocol in-process: hello, one tool "t" with schema,
// then one validate per argument text (all pipelined), ids 0..n-1. A []byte
// argument travels as arguments_base64.
func session(t *testing.T, name, schema string, args ...any) (hello map[string]any, tool map[string]any,
	results map[int]result) {
	t.Helper()
	impl, ok := Lookup(name)
	if !ok {
		t.Fatalf("no implementation %q", name)
	}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	enc.Encode(map[string]any{"op": "hello", "protocol": "toolproof/1"})
	enc.Encode(map[string]any{"op": "tool", "tool": map[string]any{"name": "t", "parameters": json.RawMessage(schema)}})
	for i, a := range args {
		switch a := a.(type) {
		case string:
			enc.Encode(map[string]any{"op": "validate", "id": i, "tool": "t", "arguments": a})
		case []byte:
			enc.Encode(map[string]any{"op": "validate", "id": i, "tool": "t",
				"arguments_base64": base64.StdEncoding.EncodeToString(a)})
		default:
			t.Fatalf("bad argument type %T", a)
		}
	}
	var out bytes.Buffer
	if err := server.Serve(impl, &in, &out, nil); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	results = map[int]result{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: answer is not JSON: %q", name, sc.Text())
		}
		switch m["op"] {
		case "hello":
			hello = m
		case "tool":
			tool = m
		case "result":
			var r result
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s: bad result %q: %v", name, sc.Text(), err)
			}
			if _, dup := results[r.ID]; dup {
				t.Fatalf("%s: id %d answered twice", name, r.ID)
			}
			results[r.ID] = r
		default:
			t.Fatalf("%s: unexpected answer %q", name, sc.Text())
		}
	}
	if len(results) != len(args) {
		t.Fatalf("%s: %d results for %d requests", name, len(results), len(args))
	}
	return hello, tool, results
}

var schemaLibraries = []string{"gojsonschema", "jsonschema-go", "qri", "kaptinlin"}
var allNames = []string{"gojsonschema", "jsonschema-go", "qri", "kaptinlin", "json-struct", "json-struct-strict"}

func TestListMatchesNames(t *testing.T) {
	var got []string
	for _, impl := range All() {
		got = append(got, impl.Name)
		if impl.Description == "" || strings.ContainsAny(impl.Description, "\t\n") {
			t.Errorf("%s: description %q must be one line without tabs", impl.Name, impl.Description)
		}
	}
	if strings.Join(got, ",") != strings.Join(allNames, ",") {
		t.Errorf("implementations %v, want %v", got, allNames)
	}
}

func TestReadTool(t *testing.T) {
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			schemaLib := name != "json-struct" && name != "json-struct-strict"
			args := []any{
				`{"path":"README.md","limit":20}`, // 0
				`{"path":"README.md","limit":"20"}`,
				`{"limit":1}`,
				`{"path":"a","extra":1}`,
				`null`,
				`[]`, // 5
				`"[]"`,
				`{"path":`,
				[]byte("{\"path\":\"\xff\xfe\"}"),
			}
			hello, tool, res := session(t, name, readSchema, args...)
			if hello["name"] != name || hello["protocol"] != "toolproof/1" || hello["version"] == "" {
				t.Errorf("hello = %v", hello)
			}
			if tool["ok"] != true || tool["name"] != "t" {
				t.Fatalf("tool = %v", tool)
			}
			valid := func(i int) bool {
				r := res[i]
				if r.Error != "" || r.Valid == nil {
					t.Fatalf("request %d: not a verdict: %v", i, r)
				}
				return *r.Valid
			}
			if !valid(0) {
				t.Errorf("valid arguments rejected: %v", res[0])
			}
			// A string for an integer: every implementation rejects it at
			// /limit (json-struct because "20" does not decode into int64).
			if valid(1) || !res[1].hasIssueAt("/limit") {
				t.Errorf("string limit: %v", res[1])
			}
			// Missing required property: all report it at /path.
			if valid(2) || !res[2].hasIssueAt("/path") {
				t.Errorf("missing path: %v", res[2])
			}
			if schemaLib || name == "json-struct-strict" {
				if valid(3) {
					t.Errorf("extra property accepted: %v", res[3])
				}
			} else {
				// json-struct drops the unknown member and fills the missing
				// optional with its zero value: both visible in the value.
				if !valid(3) {
					t.Errorf("json-struct rejected an extra property: %v", res[3])
				} else if string(res[3].Value) != `{"limit":0,"path":"a"}` {
					t.Errorf("json-struct value %s", res[3].Value)
				}
			}
			for i := 4; i <= 8; i++ {
				if valid(i) || !res[i].hasIssueAt("") {
					t.Errorf("request %d (%v) must be rejected at the root: %v", i, args[i], res[i])
				}
			}
			if schemaLib && res[0].Value != nil {
				t.Errorf("schema libraries pass the input on unchanged; got value %s", res[0].Value)
			}
		})
	}
}

// Every message (and error) must be free of the argument values: canaries
// planted in values, keys, and places each keyword looks at.
func TestCanaryNeverInMessages(t *testing.T) {
	schema := `{"type":"object","properties":{
		"path":{"type":"string","maxLength":3,"pattern":"^x","format":"date"},
		"limit":{"type":"integer","minimum":1,"maximum":5,"multipleOf":2},
		"mode":{"enum":["r","w"]},
		"c":{"const":"k"},
		"u":{"anyOf":[{"type":"integer"},{"type":"boolean"}]},
		"o":{"oneOf":[{"type":"integer"},{"type":"boolean"}]},
		"n":{"not":{"type":"string"}},
		"tags":{"type":"array","items":{"type":"integer"},"uniqueItems":true,"maxItems":1},
		"m":{"type":"object","additionalProperties":{"type":"integer"},"propertyNames":{"maxLength":2}}
	},"required":["path"],"additionalProperties":false}`
	c := canary
	args := []any{
		fmt.Sprintf(`{"path":%q}`, c),
		fmt.Sprintf(`{"path":%q,"limit":%q}`, c, c),
		fmt.Sprintf(`{"path":"x","mode":%q}`, c),
		fmt.Sprintf(`{"path":"x","c":%q}`, c),
		fmt.Sprintf(`{"path":"x","u":%q,"o":%q,"n":%q}`, c, c, c),
		fmt.Sprintf(`{"path":"x","tags":[%q,%q]}`, c, c),
		fmt.Sprintf(`{"path":"x","m":{%q:%q}}`, c, c),
		fmt.Sprintf(`{"path":"x",%q:1}`, c),
		fmt.Sprintf(`{%q:{%q:[%q]}}`, c, c, c),
		fmt.Sprintf(`{"path":{%q:%q}}`, c, c),
		fmt.Sprintf(`{"path":"x","limit":7}`),
		fmt.Sprintf(`[%q]`, c),
		fmt.Sprintf(`{"path":%q`, c),
		[]byte(fmt.Sprintf("{\"path\":\"%s\xff\"}", c)),
	}
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			_, tool, res := session(t, name, schema, args...)
			if tool["ok"] != true {
				t.Fatalf("tool refused: %v", tool)
			}
			for i, r := range res {
				if strings.Contains(r.Error, c) {
					t.Errorf("request %d: error repeats the canary: %v", i, r)
				}
				for _, is := range r.Issues {
					if strings.Contains(is.Message, c) {
						t.Errorf("request %d: message repeats the canary: %v", i, r)
					}
				}
				if r.Valid != nil && !*r.Valid && len(r.Issues) == 0 {
					t.Errorf("request %d: rejected without issues", i)
				}
			}
		})
	}
}

func TestPipelinedHundred(t *testing.T) {
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			var args []any
			for i := 0; i < 100; i++ {
				switch i % 4 {
				case 0:
					args = append(args, fmt.Sprintf(`{"path":"f%d","limit":%d}`, i, i+1))
				case 1:
					args = append(args, `{"limit":"x"}`)
				case 2:
					args = append(args, `{"path":`)
				default:
					args = append(args, []byte("\xff"))
				}
			}
			_, _, res := session(t, name, readSchema, args...) // checks every id exactly once
			for i := 0; i < 100; i++ {
				r, ok := res[i]
				if !ok || r.Valid == nil {
					t.Fatalf("id %d: %v", i, r)
				}
				if *r.Valid != (i%4 == 0) {
					t.Errorf("id %d: valid=%v: %v", i, *r.Valid, r)
				}
			}
		})
	}
}

// Paths are JSON Pointers with ~ and / escaped; keys with dots stay whole.
func TestPointerEscaping(t *testing.T) {
	schema := `{"type":"object","properties":{"a/b":{"type":"object","properties":{"c~d":{"type":"integer"}}},
		"m":{"type":"object","additionalProperties":{"type":"integer"}}}}`
	args := []any{`{"a/b":{"c~d":"x"}}`, `{"m":{"k.1/x":"y"}}`}
	for _, name := range allNames {
		t.Run(name, func(t *testing.T) {
			_, _, res := session(t, name, schema, args...)
			if !res[0].hasIssueAt("/a~1b/c~0d") {
				t.Errorf("nested property: %v", res[0])
			}
			want := "/m/k.1~1x"
			if name == "jsonschema-go" {
				// The location of a value checked by additionalProperties
				// cannot be derived from the schema location it reports:
				// the issue is at the enclosing object.
				want = "/m"
			}
			if !res[1].hasIssueAt(want) {
				t.Errorf("map value: want issue at %q: %v", want, res[1])
			}
		})
	}
}

// Refusing a schema: ok:false with an error, and later validations of that
// tool are adapter errors, not verdicts.
func TestSchemaRefused(t *testing.T) {
	for _, name := range schemaLibraries {
		t.Run(name, func(t *testing.T) {
			_, tool, res := session(t, name, `{"type":5}`, `{}`)
			if tool["ok"] != false || tool["error"] == "" {
				t.Errorf("tool = %v", tool)
			}
			if res[0].Error == "" {
				t.Errorf("validate against a refused tool: %v", res[0])
			}
		})
	}
	// json-struct looks at nothing it cannot turn into a Go type: it takes
	// any schema.
	_, tool, _ := session(t, "json-struct", `{"type":5}`)
	if tool["ok"] != true {
		t.Errorf("json-struct tool = %v", tool)
	}
}

// Library behaviours worth knowing, asserted as they are (some are bugs).
func TestLibraryQuirks(t *testing.T) {
	t.Run("qri accepts strings that parse as booleans", func(t *testing.T) {
		// BUG in qri v0.2.1: Type.ValidateKeyword accepts a string for
		// "boolean" when strconv.ParseBool parses it ("true", "1", "F", ...).
		_, _, res := session(t, "qri", `{"type":"object","properties":{"b":{"type":"boolean"}}}`, `{"b":"true"}`,
			`{"b":"1"}`, `{"b":"yes"}`)
		if !*res[0].Valid || !*res[1].Valid || *res[2].Valid {
			t.Errorf("got %v %v %v", res[0], res[1], res[2])
		}
	})
	t.Run("qri calls 1e20 a non-integer", func(t *testing.T) {
		// BUG in qri v0.2.1: DataType tests float64(int(x)) == x, which
		// fails beyond the int64 range.
		_, _, res := session(t, "qri", `{"type":"object","properties":{"n":{"type":"integer"}}}`,
			`{"n":1e20}`, `{"n":2.0}`)
		if *res[0].Valid || !*res[1].Valid {
			t.Errorf("got %v %v", res[0], res[1])
		}
	})
	t.Run("float64 rounding of large integers", func(t *testing.T) {
		// jsonschema-go and qri decode into float64: 2^53+1 rounds to 2^53
		// and passes "maximum": 2^53. gojsonschema and kaptinlin compare
		// exactly.
		schema := `{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740992}}}`
		for name, want := range map[string]bool{"gojsonschema": false, "kaptinlin": false,
			"jsonschema-go": true, "qri": true} {
			_, _, res := session(t, name, schema, `{"n":9007199254740993}`)
			if *res[0].Valid != want {
				t.Errorf("%s: got %v, want valid=%v", name, res[0], want)
			}
		}
	})
	t.Run("prefixItems needs 2020-12", func(t *testing.T) {
		// gojsonschema (draft 7 at most) and qri (2019-09) ignore the
		// unknown keyword prefixItems.
		schema := `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"}]}}}`
		for name, want := range map[string]bool{"gojsonschema": true, "qri": true,
			"jsonschema-go": false, "kaptinlin": false} {
			_, _, res := session(t, name, schema, `{"p":[1]}`)
			if *res[0].Valid != want {
				t.Errorf("%s: got %v, want valid=%v", name, res[0], want)
			}
		}
	})
	t.Run("format is asserted by gojsonschema and qri only", func(t *testing.T) {
		schema := `{"type":"object","properties":{"d":{"type":"string","format":"date"}}}`
		for name, want := range map[string]bool{"gojsonschema": false, "qri": false,
			"jsonschema-go": true, "kaptinlin": true} {
			_, _, res := session(t, name, schema, `{"d":"not a date"}`)
			if *res[0].Valid != want {
				t.Errorf("%s: got %v, want valid=%v", name, res[0], want)
			}
		}
	})
	t.Run("kaptinlin accepts anything under an unresolvable $ref", func(t *testing.T) {
		// BUG (fails open) in kaptinlin v0.9.8: a $ref that resolves to
		// nothing compiles and validates everything. gojsonschema and
		// jsonschema-go refuse the schema; qri rejects every instance.
		schema := `{"type":"object","properties":{"a":{"$ref":"#/nope"}}}`
		_, tool, res := session(t, "kaptinlin", schema, `{"a":1}`)
		if tool["ok"] != true || !*res[0].Valid {
			t.Errorf("kaptinlin: %v %v", tool, res[0])
		}
		_, tool, res = session(t, "qri", schema, `{"a":1}`)
		if tool["ok"] != true || *res[0].Valid || !res[0].hasIssueAt("/a") {
			t.Errorf("qri: %v %v", tool, res[0])
		}
		for _, name := range []string{"gojsonschema", "jsonschema-go"} {
			if _, tool, _ := session(t, name, schema); tool["ok"] != false {
				t.Errorf("%s: %v", name, tool)
			}
		}
	})
	t.Run("remote $ref is never fetched", func(t *testing.T) {
		schema := `{"type":"object","properties":{"a":{"$ref":"https://example.invalid/s.json"}}}`
		_, tool, _ := session(t, "gojsonschema", schema)
		if tool["ok"] != false || !strings.Contains(fmt.Sprint(tool["error"]), "does not fetch") {
			t.Errorf("gojsonschema: %v", tool)
		}
	})
	t.Run("kaptinlin checks missing required properties against their schema as null", func(t *testing.T) {
		// kaptinlin v0.9.8 evaluates an absent required property's schema
		// against null, so {"limit":1} gets a type issue at /path besides
		// the required one.
		_, _, res := session(t, "kaptinlin", readSchema, `{"limit":1}`)
		var kws []string
		for _, is := range res[0].Issues {
			if is.Path == "/path" {
				kws = append(kws, is.Keyword)
			}
		}
		if strings.Join(kws, ",") != "required,type" {
			t.Errorf("got %v", res[0])
		}
	})
	t.Run("kaptinlin rejects duplicate member names", func(t *testing.T) {
		// Its decoder (go-json-experiment/json) refuses duplicates; the
		// others keep the last one.
		for _, name := range allNames {
			_, _, res := session(t, name, readSchema, `{"path":"a","path":"b"}`)
			if want := name != "kaptinlin"; *res[0].Valid != want {
				t.Errorf("%s: got %v, want valid=%v", name, res[0], want)
			}
		}
	})
	t.Run("jsonschema-go reports one error, at a schema-derived location", func(t *testing.T) {
		schema := `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object",` +
			`"properties":{"v":{"type":"integer"}}}}}}`
		_, _, res := session(t, "jsonschema-go", schema, `{"l":[{"v":1},{"v":"x"},{"v":"y"}]}`)
		if len(res[0].Issues) != 1 || res[0].Issues[0].Path != "/l" {
			t.Errorf("got %v", res[0])
		}
		_, _, res = session(t, "gojsonschema", schema, `{"l":[{"v":1},{"v":"x"},{"v":"y"}]}`)
		if !res[0].hasIssueAt("/l/1/v") || !res[0].hasIssueAt("/l/2/v") {
			t.Errorf("gojsonschema: %v", res[0])
		}
	})
}

func TestJSONStructSilentChanges(t *testing.T) {
	schema := `{"type":"object","properties":{
		"path":{"type":"string"},
		"n":{"type":"integer"},
		"x":{"type":"number"},
		"any":{},
		"opt":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},
		"list":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}
	},"required":["path"]}`
	args := []any{
		`{"PATH":"x"}`, // 0: case-insensitive match
		`{"path":"x","any":12345678901234567890}`, // 1: any -> float64
		`{"path":"x","n":2.0}`,                    // 2: 2.0 is not an int64
		`{"path":"x","n":1.5}`,                    // 3
		`{"path":null}`,                           // 4: null counts as missing
		`{"path":"x","opt":{}}`,                   // 5: nested required
		`{"path":"x","list":[{"id":1},{}]}`,       // 6: required inside an array
		`{"path":"x","x":1e400}`,                  // 7: out of float64 range
		`{"path":"\ud800"}`,                       // 8: lone surrogate becomes U+FFFD
	}
	_, _, res := session(t, "json-struct", schema, args...)
	wantValue := map[int]string{
		0: `{"any":null,"list":null,"n":0,"opt":null,"path":"x","x":0}`,
		1: `{"any":12345678901234567000,"list":null,"n":0,"opt":null,"path":"x","x":0}`,
		8: `{"any":null,"list":null,"n":0,"opt":null,"path":"` + "\ufffd" + `","x":0}`,
	}
	wantIssue := map[int]string{2: "/n", 3: "/n", 4: "/path", 5: "/opt/a", 6: "/list/1/id", 7: "/x"}
	for i := range args {
		r := res[i]
		if v, ok := wantValue[i]; ok {
			if r.Valid == nil || !*r.Valid || string(r.Value) != v {
				t.Errorf("request %d: got %v, want value %s", i, r, v)
			}
		}
		if p, ok := wantIssue[i]; ok {
			if r.Valid == nil || *r.Valid || !r.hasIssueAt(p) {
				t.Errorf("request %d: got %v, want an issue at %s", i, r, p)
			}
		}
	}
	// Strict: an unknown member at any depth is rejected (reported at its object).
	_, _, res = session(t, "json-struct-strict", schema, `{"path":"x","list":[{"id":1,"zz":2}]}`, `{"PATH":"x"}`)
	if *res[0].Valid || !res[0].hasIssueAt("/list/0") {
		t.Errorf("strict nested unknown: %v", res[0])
	}
	// DisallowUnknownFields still matches keys case-insensitively.
	if !*res[1].Valid {
		t.Errorf("strict PATH: %v", res[1])
	}
}

// gojsonschema's instance paths come from its context list, read exactly.
func TestGoJSONSchemaContextPointer(t *testing.T) {
	schema := `{"type":"object","properties":{"a.b":{"type":"object","properties":{"(root)":{"type":"integer"}}}}}`
	_, _, res := session(t, "gojsonschema", schema, `{"a.b":{"(root)":"x"}}`)
	if !res[0].hasIssueAt("/a.b/(root)") {
		t.Errorf("got %v", res[0])
	}
}

// jsonschema-go: instance paths derived through $ref hops and prefixItems.
func TestJSONSchemaGoPaths(t *testing.T) {
	schema := `{"type":"object","$defs":{"pt":{"type":"object","properties":{"x/y":{"type":"integer"}},` +
		`"required":["z"]}},
		"properties":{"p":{"$ref":"#/$defs/pt"},"t":{"type":"array","prefixItems":[{"type":"string"},` +
		`{"$ref":"#/$defs/pt"}]},
		"all":{"allOf":[{"properties":{"q":{"type":"string"}}}]}}}`
	args := []any{`{"p":{"x/y":"s","z":1}}`, `{"t":["a",{"x/y":1}]}`, `{"all":{"q":1}}`}
	_, _, res := session(t, "jsonschema-go", schema, args...)
	for i, want := range []string{"/p/x~1y", "/t/1/z", "/all/q"} {
		if !res[i].hasIssueAt(want) {
			t.Errorf("request %d: want issue at %s: %v", i, want, res[i])
		}
	}
}

// The libraries that validate Go values reject a number float64 cannot hold (it passed the
// gate) at the root, naming themselves and the Go type, never the number.
func TestUndecodableArgumentsRejected(t *testing.T) {
	for _, name := range []string{"qri", "jsonschema-go"} {
		_, _, res := session(t, name, `{"type":"object"}`, `{"x":1e400}`)
		r := res[0]
		if r.Valid == nil || *r.Valid || len(r.Issues) != 1 || r.Issues[0].Path != "" {
			t.Errorf("%s: got %v, want one issue at the root", name, r)
			continue
		}
		msg := r.Issues[0].Message
		if !strings.HasPrefix(msg,
			name+": arguments cannot be decoded into Go values (a JSON number does not fit Go type float64)") ||
			strings.Contains(msg, "1e400") {
			t.Errorf("%s: message %q", name, msg)
		}
	}
}
