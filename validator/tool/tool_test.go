package tool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

const params = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`

func names(s tool.Set) []string {
	var out []string
	for _, t := range s.Tools {
		out = append(out, t.Name)
	}
	return out
}

func TestParseEnvelopes(t *testing.T) {
	tests := map[string]string{
		"plain": `{"name":"read","description":"d","parameters":` + params + `}`,
		"openai chat": `{"type":"function","function":{"name":"read","description":"d","parameters":` +
			params + `,"strict":true}}`,
		"openai responses": `{"type":"function","name":"read","description":"d","parameters":` +
			params + `,"strict":true}`,
		"anthropic": `{"name":"read","description":"d","input_schema":` + params +
			`,"cache_control":{"type":"ephemeral"}}`,
		"mcp": `{"name":"read","description":"d","inputSchema":` + params + `,"annotations":{}}`,
		"mcp tools/list": `{"tools":[{"name":"read","description":"d","inputSchema":` + params +
			`}],"nextCursor":null}`,
		"jsonrpc tools/list": `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"read","description":"d",` +
			`"inputSchema":` + params + `}]}}`,
		"array": `[{"name":"read","description":"d","parameters":` + params + `}]`,
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			set, err := tool.Parse([]byte(data), "f.json")
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Tools) != 1 || len(set.Skipped) != 0 {
				t.Fatalf("got %+v", set)
			}
			got := set.Tools[0]
			if got.Name != "read" || got.Description != "d" {
				t.Fatalf("got %+v", got)
			}
			var a, b any
			json.Unmarshal(got.Parameters, &a)
			json.Unmarshal([]byte(params), &b)
			if diff := cmp.Diff(b, a); diff != "" {
				t.Errorf("parameters (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseJSONLinesAndSkips(t *testing.T) {
	data := strings.Join([]string{
		`{"name":"a","parameters":` + params + `}`,
		``,
		`{"description":"no name"}`,
		`{"name":"b","parameters":"not a schema"}`,
		`[{"name":"c"},{"name":"d","input_schema":` + params + `}]`,
		`42`,
	}, "\n")
	set, err := tool.Parse([]byte(data), "tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "c", "d"}, names(set)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	var sources []string
	for _, s := range set.Skipped {
		sources = append(sources, s.Source+" "+s.Reason)
	}
	want := []string{
		`tools.jsonl:3 no "name"`,
		`tools.jsonl:4 "parameters" must be a JSON Schema object, found string`,
		`tools.jsonl:6 a tool definition must be a JSON object, found number`,
	}
	if diff := cmp.Diff(want, sources); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if set.Tools[1].Source != "tools.jsonl:5#0" {
		t.Errorf("source = %q", set.Tools[1].Source)
	}
}

func TestParseErrorsNameFileAndLine(t *testing.T) {
	_, err := tool.Parse([]byte("{\"name\":\"a\"}\n{\"name\": oops}\n"), "x.jsonl")
	if err == nil || !strings.Contains(err.Error(), "x.jsonl:2") {
		t.Fatalf("err = %v, want one naming x.jsonl:2", err)
	}
	_, err = tool.Parse([]byte("{\"name\": "), "y.json")
	if err == nil || !strings.Contains(err.Error(), "y.json") {
		t.Fatalf("err = %v, want one naming y.json", err)
	}
}

// Every syntax error names the file, the line and the column.
func TestParseErrorsGiveLineAndColumn(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{"name":"a",}`, "f.json:1:13: not JSON: invalid character '}'"},
		{"[\n  {\"name\": \"a\"},\n  {\"name\": oops}\n]", "f.json:3:12: not JSON: invalid character 'o'"},
		{"{\"name\":\"a\"}\n{\"name\": oops}\n", "f.json:2:10: not JSON: invalid character 'o'"},
		{"{\"name\": ", "f.json:1:9: not JSON: the text ends in the middle of a value"},
		{"{\n \"name\":\"a\"\n}\n}", "f.json:4:1: not JSON: more text after the JSON value"},
		{"{\"name\":\"a\"}\n  {\"name\":\"b\"}}", "f.json:2:15: not JSON Lines: a second value on the line"},
		{"\n\n{\"name\":\"a\",}", "f.json:3:13: not JSON"},
	} {
		_, err := tool.Parse([]byte(c.data), "f.json")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q...", c.data, err, c.want)
		}
	}
}

// A bare JSON Schema is not a tool; the reason says what to do with it.
func TestBareSchemaIsNamedAsSuch(t *testing.T) {
	for _, data := range []string{params, `{"$schema":"https://json-schema.org/draft/2020-12/schema"}`,
		`{"type":["object","null"]}`} {
		set, err := tool.Parse([]byte(data), "args.schema.json")
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Tools) != 0 || len(set.Skipped) != 1 ||
			!strings.Contains(set.Skipped[0].Reason, "JSON Schema, not a tool definition") ||
			!strings.Contains(set.Skipped[0].Reason, "gen --schema") {
			t.Errorf("%s: tools %v, skipped %v", data, set.Tools, set.Skipped)
		}
	}
	set, _ := tool.Parse([]byte(`{"description":"no name"}`), "f.json")
	if len(set.Skipped) != 1 || set.Skipped[0].Reason != `no "name"` {
		t.Errorf("skipped %v", set.Skipped)
	}
}

func TestDuplicateNames(t *testing.T) {
	other := `{"type":"object","properties":{"q":{"type":"string"}}}`
	data := `[{"name":"a","parameters":` + params + `},{"name":"a","parameters":` + params +
		`},{"name":"a","parameters":` + other + `}]`
	set, err := tool.Parse([]byte(data), "f.json")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "a__2", "a__3"}, names(set)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if len(set.Skipped) != 0 || len(set.Renamed) != 2 || !strings.Contains(set.Renamed[0], "same schema") {
		t.Errorf("skipped %v renamed %v", set.Skipped, set.Renamed)
	}
}

func TestLoadDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b.json", `{"name":"b","parameters":`+params+`}`)
	write("a.jsonl", `{"name":"a","parameters":`+params+`}`)
	write("notes.txt", `ignored`)
	set, err := tool.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b"}, names(set)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(set.Tools[1].Source, "b.json") {
		t.Errorf("source %q", set.Tools[1].Source)
	}
	// A file of the directory that is not JSON is skipped with its reason; the others are read.
	write("c.json", "{\"name\": \"c\",\n \"parameters\": {]}")
	set, err = tool.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b"}, names(set)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if len(set.Skipped) != 1 || !strings.HasSuffix(set.Skipped[0].Source, "c.json") ||
		!strings.Contains(set.Skipped[0].Reason, "2:17: not JSON: invalid character ']'") {
		t.Errorf("skipped %v, want c.json with the line and column", set.Skipped)
	}
	// The same file given on its own is an error naming it, the line and the column.
	if _, err := tool.Load(filepath.Join(dir, "c.json")); err == nil ||
		!strings.Contains(err.Error(), "c.json:2:17: not JSON") {
		t.Errorf("err = %v, want one naming c.json:2:17", err)
	}
	if _, err := tool.Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("no error for a missing path")
	}
}

func TestClose(t *testing.T) {
	tl := tool.Tool{Name: "x", Parameters: json.RawMessage(`{
		"type":"object",
		"properties":{"o":{"type":"object","properties":{"a":{}}}, "m":{"type":"object",` +
		`"additionalProperties":{"type":"string"}},
		"l":{"type":"array","items":{"properties":{"k":{}}}}},
		"allOf":[{"properties":{"z":{}}}],
		"$defs":{"d":{"type":"object"}}
	}`)}
	var got map[string]any
	json.Unmarshal(tool.Close(tl).Parameters, &got)
	props := got["properties"].(map[string]any)
	check := func(where string, s any, want any) {
		t.Helper()
		if ap := s.(map[string]any)["additionalProperties"]; !cmp.Equal(ap, want) {
			t.Errorf("%s: additionalProperties = %v, want %v", where, ap, want)
		}
	}
	check("root", got, nil) // its allOf member declares a property: closed by unevaluatedProperties
	if got["unevaluatedProperties"] != false {
		t.Errorf("root: unevaluatedProperties = %v, want false", got["unevaluatedProperties"])
	}
	check("/o", props["o"], false)
	check("/m", props["m"], map[string]any{"type": "string"})
	check("/l/items", props["l"].(map[string]any)["items"], false)
	check("allOf member", got["allOf"].([]any)[0], nil)
	check("$defs", got["$defs"].(map[string]any)["d"], false)
}

// Closing keeps what was valid valid and makes an invented key invalid, also where parts of an
// object (if/then/else, oneOf branches, allOf members) declare its properties.
func TestCloseKeepsTheMeaning(t *testing.T) {
	schema := `{
		"type": "object",
		"properties": {"kind": {"enum": ["a", "b"]}, "n": {"type": "integer"}},
		"required": ["kind"],
		"if": {"properties": {"kind": {"const": "a"}}},
		"then": {"properties": {"n": {"minimum": 0}, "extra_a": {"type": "string"}}},
		"else": {"properties": {"m": {"type": "string"}}},
		"oneOf": [{"properties": {"p": {"type": "boolean"}}, "required": ["p"]}, ` +
		`{"properties": {"q": {"type": "boolean"}}, "required": ["q"]}],
		"$defs": {"child": {"type": "object", "properties": {"x": {"type": "integer"}}}}
	}`
	closed := tool.Close(tool.Tool{Name: "c", Parameters: json.RawMessage(schema)})
	gk, err := oracle.Compile(closed)
	if err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]bool{
		`{"kind":"a","n":1,"p":true}`:                 true,
		`{"kind":"a","extra_a":"x","q":false}`:        true,
		`{"kind":"b","m":"x","p":true}`:               true,
		`{"kind":"a","n":-5,"p":true}`:                false, // then still applies
		`{"kind":"a","p":true,"invented":1}`:          false, // closed
		`{"kind":"b","m":"x","p":true,"extra_a":"x"}`: false, // declared only by then, not evaluated under else
	} {
		_, err := gk.Parse([]byte(args))
		if got := err == nil; got != want {
			t.Errorf("%s: valid = %v, want %v (%v)", args, got, want, err)
		}
	}
}

// A pattern not every regex dialect reads alike is a warning of the set, naming the tool, the
// pattern and its place; portable patterns are not.
func TestSetWarnsOfDialectOnlyPatterns(t *testing.T) {
	set, err := tool.Parse([]byte(`[{"name":"a","parameters":{"type":"object",`+
		`"properties":{"x":{"type":"string","pattern":"(?i)^id$"}}}},
		{"name":"b","parameters":{"type":"object","properties":{"x":{"type":"string","pattern":"^[a-z]+$"}}}}]`),
		"f.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Warnings) != 1 || !strings.Contains(set.Warnings[0], `tool "a"`) ||
		!strings.Contains(set.Warnings[0], `"(?i)^id$" at /properties/x/pattern`) {
		t.Fatalf("warnings: %q", set.Warnings)
	}
	var all tool.Set
	all.Merge(set)
	if len(all.Warnings) != 1 {
		t.Fatalf("merged warnings: %q", all.Warnings)
	}
}

// A directory read under a context that is done reads no file and counts them all unread; one
// read under a live context reads them all.
func TestLoadStopsWithItsContext(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 3; i++ {
		body := fmt.Sprintf(`{"name":"t%d","parameters":{"type":"object"}}`, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%d.json", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	set, err := tool.LoadContext(ctx, dir)
	if err != nil || len(set.Tools) != 0 || set.Unread != 3 {
		t.Fatalf("stopped: %d tools, %d unread, err %v; want 0, 3, nil", len(set.Tools), set.Unread, err)
	}
	set, err = tool.LoadContext(context.Background(), dir)
	if err != nil || len(set.Tools) != 3 || set.Unread != 0 {
		t.Fatalf("live: %d tools, %d unread, err %v; want 3, 0, nil", len(set.Tools), set.Unread, err)
	}
}
