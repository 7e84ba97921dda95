package harness

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// schemaPlace names the keyword the oracle finds a case's arguments break, where the schema
// document writes it (behind a $ref, in a then, at the object that lacks a key); else the
// subschema the path leads to; and nothing for raw text or the bare root.
func TestSchemaPlace(t *testing.T) {
	schema := `{"type": "object", "required": ["name"], "additionalProperties": false,
		"properties": {
			"name": {"type": "string", "format": "email"},
			"limit": {"$ref": "#/$defs/count"},
			"tags": {"type": "array", "prefixItems": [{"const": "first"}], "items": {"type": "string", "maxLength": 3}},
			"env": {"enum": ["dev", "prod"]},
			"replicas": {"type": "integer"},
			"meta": {"type": "object", "patternProperties": {"^x-": {"type": "boolean"}}, "additionalProperties": {"type": "number"}},
			"choice": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
		},
		"if": {"properties": {"env": {"const": "prod"}}, "required": ["env"]},
		"then": {"properties": {"replicas": {"minimum": 2}}},
		"$defs": {"count": {"type": "integer", "maximum": 10}}}`
	gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: []byte(schema)})
	if err != nil {
		t.Fatal(err)
	}
	distortion := func(args, path, keyword string) report.Finding {
		return report.Finding{Case: corpus.Case{Tool: "t", Class: "some_class", Expect: corpus.Reject,
			Args: []byte(args), Path: path, Scope: path, Keyword: keyword}}
	}
	valid := func(args string, issues ...report.Issue) report.Finding {
		return report.Finding{Case: corpus.Case{Tool: "t", Class: corpus.Valid, Expect: corpus.Accept,
			Args: []byte(args)}, Issues: issues}
	}
	for _, c := range []struct {
		name string
		f    report.Finding
		want string // "" : no place
	}{
		{"type", distortion(`{"name": 5}`, "/name", "type"), "/properties/name/type"},
		{"format", distortion(`{"name": "no"}`, "/name", "format"), "/properties/name/format"},
		{"behind a $ref", distortion(`{"name": "a@b.c", "limit": 11}`, "/limit", "maximum"), "/$defs/count/maximum"},
		{"required", func() report.Finding { f := distortion(`{}`, "/name", "required"); f.Scope = ""; return f }(),
			"/required"},
		{"additionalProperties", func() report.Finding {
			f := distortion(`{"name": "a@b.c", "nmae": 1}`, "/nmae", "additionalProperties")
			f.Scope = ""
			return f
		}(), "/additionalProperties"},
		{"an item", distortion(`{"name": "a@b.c", "tags": ["first", "long"]}`, "/tags/1", "maxLength"),
			"/properties/tags/items/maxLength"},
		{"a prefix item", distortion(`{"name": "a@b.c", "tags": ["x"]}`, "/tags/0", "const"),
			"/properties/tags/prefixItems/0/const"},
		{"then", distortion(`{"name": "a@b.c", "env": "prod", "replicas": 1}`, "/replicas", "minimum"),
			"/then/properties/replicas/minimum"},
		{"anyOf", distortion(`{"name": "a@b.c", "choice": true}`, "/choice", "anyOf"), "/properties/choice/anyOf"},
		// A value that fails every branch of an anyOf at the place fails the choice: not the first
		// branch's type (a string, for a fraction the integer branch is nearer to), but the anyOf.
		{"a wrong type in an anyOf", distortion(`{"name": "a@b.c", "choice": 1.5}`, "/choice", "type"),
			"/properties/choice/anyOf"},
		{"a pattern property", distortion(`{"name": "a@b.c", "meta": {"x-a": 1}}`, "/meta/x-a", "type"),
			"/properties/meta/patternProperties/^x-/type"},
		{"the other properties", distortion(`{"name": "a@b.c", "meta": {"y": "s"}}`, "/meta/y", "type"),
			"/properties/meta/additionalProperties/type"},
		// The keyword first: the case names the type, though its enum fails too.
		{"the case's keyword", distortion(`{"name": "a@b.c", "env": 3}`, "/env", "enum"), "/properties/env/enum"},
		// No error at the place (the oracle reads the value as valid): the subschema of the path.
		{"no error there", distortion(`{"name": "a@b.c", "replicas": 3}`, "/replicas", "type"),
			"/properties/replicas/type"},
		{"raw text", distortion("{\"name\": ", "", "json"), ""},
		{"a valid case the gate rejects at a place",
			valid(`{"name": "a@b.c", "limit": 3}`,
				report.Issue{Path: "/limit", Keyword: "maximum"}), "/$defs/count/maximum"},
		{"a valid case the gate rejects at a keyword the schema lacks",
			valid(`{"name": "a@b.c", "tags": ["a", "b"]}`,
				report.Issue{Path: "/tags/1", Keyword: "pattern"}), "/properties/tags/items"},
		{"a valid case the gate rejects at the root",
			valid(`{"name": "a@b.c"}`, report.Issue{Path: "", Keyword: "type"}), ""},
		{"a valid case the gate rejects saying nothing", valid(`{"name": "a@b.c"}`), ""},
	} {
		got, ok := schemaPlace(gk, c.f)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}

// A subschema named by an $id is still written in the tool's schema document; a place only a
// $ref to another document reaches (a metaschema, which the oracle knows without loading it) is
// not, and the place is the subschema that holds the $ref.
// Inside a branch of an anyOf, below the place the anyOf is at, the keyword is the branch's:
// a member of the object branch, not the anyOf that holds it.
func TestSchemaPlaceInsideABranch(t *testing.T) {
	schema := `{"properties": {"u": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"k": {"type": ` +
		`"integer"}}}]}}}`
	gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: []byte(schema)})
	if err != nil {
		t.Fatal(err)
	}
	f := report.Finding{Case: corpus.Case{Tool: "t", Class: "stringified_type", Expect: corpus.Reject,
		Args: []byte(`{"u": {"k": "1"}}`), Path: "/u/k", Scope: "/u/k", Keyword: "type"}}
	if got, ok := schemaPlace(gk, f); got != "/properties/u/anyOf/1/properties/k/type" || !ok {
		t.Errorf("%q, %v; want the type of k in the object branch", got, ok)
	}
}

func TestSchemaPlaceAcrossDocuments(t *testing.T) {
	schema := `{"type": "object", "properties": {"n": {"$ref": "https://example.com/n"}, "s": {"$ref": "https://json-schema.org/draft/2020-12/schema"}},
		"$defs": {"n": {"$id": "https://example.com/n", "type": "integer"}}}`
	gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: []byte(schema)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ args, path, want string }{
		{`{"n": "x"}`, "/n", "/$defs/n/type"},
		{`{"s": 5}`, "/s", "/properties/s"},
	} {
		f := report.Finding{Case: corpus.Case{Tool: "t", Class: "wrong_type", Expect: corpus.Reject,
			Args: []byte(c.args), Path: c.path, Scope: c.path, Keyword: "type"}}
		if got, ok := schemaPlace(gk, f); got != c.want || !ok {
			t.Errorf("%s: %q, %v; want %q", c.args, got, ok, c.want)
		}
	}
}

// locateAll locates the findings fs and firsts of each of tools (checked closed, as --close
// does) in the files read gives, and adds each tool's result to a report.
func locateAll(t testing.TB, tools []tool.Tool, files Files, fs []report.Finding,
	firsts []report.Finding) *report.Report {
	r := &report.Report{}
	pl := newPlacer(files, tools)
	for _, tl := range tools {
		p, skip := prepareOracle(tl, true, mutators.SiblingsOf(tools))
		if skip != nil {
			t.Fatal(skip)
		}
		tr := &toolResult{tool: tl.Name}
		for _, f := range fs {
			if f.Tool == tl.Name {
				tr.findings = append(tr.findings, f)
			}
		}
		for _, f := range firsts {
			if f.Tool == tl.Name {
				tr.firsts = append(tr.firsts, f)
			}
		}
		pl.locate(p, tr)
		addResult(r, tr)
		if len(tr.firsts) > 0 {
			r.Shard = &report.ShardInfo{Shrinks: []report.ShardShrink{{First: tr.firsts[0]}}}
		}
	}
	return r
}

// locate puts each finding of a tool read from a file at its schema place in that file (here on
// the second line of a JSON Lines file), and its tool's definition in Sources; a finding with no
// schema place stays at its tool's definition; a tool not read from a file, or from a file that
// cannot be read now, is not located. A keyword --close added is at the subschema that lacks it.
func TestLocate(t *testing.T) {
	text := "{\"name\": \"ping\"}\n  {\"name\": \"read\", \"parameters\": {\"properties\": {\"limit\": {\"type\": " +
		"\"integer\"}}}}\n" +
		"{\"name\": \"open\", \"parameters\": {\"properties\": {\"o\": {\"type\": \"object\"}}}}\n"
	set, err := tool.Parse([]byte(text), "dir/tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	gone := tool.Tool{Name: "gone",
		Parameters: []byte(`{"properties": {"a": {"type": "integer"}}}`), Source: "gone.json#0"}
	served := tool.Tool{Name: "listed", Parameters: gone.Parameters}
	tools := append(set.Tools, gone, served)
	missed := func(tl string, args string) report.Finding {
		return report.Finding{Case: corpus.Case{Tool: tl, Class: "stringified_type", Expect: corpus.Reject,
			Args: []byte(args), Path: "/limit", Scope: "/limit", Keyword: "type"}}
	}
	fs := []report.Finding{missed("read", `{"limit": "2"}`), missed("read", "{\"limit\": 2,"),
		missed("gone", `{"a": "1"}`), missed("listed", `{"a": "1"}`)}
	fs[1].Kind = report.Crash
	extra := report.Finding{Case: corpus.Case{Tool: "open", Class: "hallucinated_key", Expect: corpus.Reject,
		Args: []byte(`{"o": {"x": 1}}`),
		Path: "/o/x", Scope: "/o", Keyword: "additionalProperties"}}
	fs = append(fs, extra)
	read := func(path string) []byte {
		if path == "dir/tools.jsonl" {
			return []byte(text)
		}
		return nil
	}
	r := locateAll(t, tools, Files{Read: read, Name: func(p string) string { return "./" + p }}, fs,
		[]report.Finding{missed("read", `{"limit": "20"}`)})
	at := report.Source{File: "./dir/tools.jsonl", Line: 2, Column: 60, Schema: "/properties/limit/type"}
	if got := r.Findings[0].Location; got != at {
		t.Errorf("the stringified limit: %+v, want %+v", got, at)
	}
	if got := r.Shard.Shrinks[0].First.Location; got != at {
		t.Errorf("the shard's first case: %+v, want %+v", got, at)
	}
	def := report.Source{File: "./dir/tools.jsonl", Line: 2, Column: 4}
	if got := r.Findings[1].Location; got != (report.Source{}) || r.At(r.Findings[1]) != def {
		t.Errorf("raw text: %+v, at %+v; want no location, at the definition %+v", got, r.At(r.Findings[1]), def)
	}
	if r.Sources["read"] != def {
		t.Errorf("sources %+v, want read's at %+v", r.Sources, def)
	}
	if got, want := r.Findings[2].Location, (report.Source{File: "./dir/tools.jsonl", Line: 3, Column: 48,
		Schema: "/properties/o"}); got != want {
		t.Errorf("a key --close refuses: %+v, want %+v", got, want)
	}
	if len(r.Sources) != 2 {
		t.Errorf("sources %+v, want read's and open's", r.Sources)
	}
	for _, f := range r.Findings[3:5] {
		if f.Location != (report.Source{}) || r.At(f) != (report.Source{}) {
			t.Errorf("%s: %+v, want nowhere", f.Tool, f.Location)
		}
	}
}

// BenchmarkLocate locates one finding in each of the 1,000 tools of one tool file (about 130
// KB): a validation per tool with the oracle it was checked with, one pass over the file to index
// it, one over each tool's definition.
func BenchmarkLocate(b *testing.B) {
	var text strings.Builder
	text.WriteString("[\n")
	for i := range 1000 {
		if i > 0 {
			text.WriteString(",\n")
		}
		fmt.Fprintf(&text, `  {"name": "t%d", "parameters": {"type": "object", "properties": {"p": {"type": `+
			`"integer", "minimum": 0}, "q": {"type": "string"}}}}`, i)
	}
	text.WriteString("\n]\n")
	set, err := tool.Parse([]byte(text.String()), "tools.json")
	if err != nil {
		b.Fatal(err)
	}
	files := Files{Read: func(string) []byte { return []byte(text.String()) }}
	ps := make([]*prepared, len(set.Tools))
	for i, tl := range set.Tools {
		ps[i], _ = prepareOracle(tl, false, nil)
	}
	b.ReportAllocs()
	for b.Loop() {
		var last *toolResult
		pl := newPlacer(files, set.Tools)
		for _, p := range ps {
			last = &toolResult{tool: p.tool.Name,
				findings: []report.Finding{{Case: corpus.Case{Tool: p.tool.Name, Class: "stringified_type",
					Expect: corpus.Reject, Args: []byte(`{"p": "1"}`), Path: "/p", Scope: "/p", Keyword: "type"}}}}
			pl.locate(p, last)
		}
		if last.findings[0].Location.Line != 1001 {
			b.Fatalf("the last finding at %+v", last.findings[0].Location)
		}
	}
}

// A column counts characters (Unicode code points), not bytes: SARIF's region columns count
// characters (the run says which: columnKind), and so do editors. Text before the place that
// is not ASCII (an accent, a CJK word, an emoji) moves the column by one per character.
func TestLocateColumnsCountCharacters(t *testing.T) {
	text := "[{\"name\": \"x\", \"description\": \"héllo 日本 😀\", \"parameters\": {\"properties\": {\"n\": {\"type\": " +
		"\"integer\"}}}},\n" +
		" {\"description\": \"ü\", \"name\": \"y\", \"parameters\": {}}]\n"
	set, err := tool.Parse([]byte(text), "tools.json")
	if err != nil {
		t.Fatal(err)
	}
	f := report.Finding{Case: corpus.Case{Tool: "x", Class: "stringified_type", Expect: corpus.Reject,
		Args: []byte(`{"n": "1"}`), Path: "/n", Scope: "/n", Keyword: "type"}}
	g := report.Finding{Case: corpus.Case{Tool: "y", Class: "raw_text", Expect: corpus.Reject, Args: []byte(`{`)}}
	r := locateAll(t, set.Tools, Files{Read: func(string) []byte { return []byte(text) }}, []report.Finding{f, g}, nil)
	line := strings.SplitN(text, "\n", 2)[0]
	want := utf8.RuneCountInString(line[:strings.Index(line, `"type"`)]) + 1
	if got := r.Findings[0].Location; got.Line != 1 || got.Column != want {
		t.Errorf("after non-ASCII text: %+v, want line 1, column %d (characters; the byte column is %d)", got, want,
			strings.Index(line, `"type"`)+1)
	}
	if got := r.Sources["y"]; got.Line != 2 || got.Column != 23 {
		t.Errorf("the definition of y: %+v, want line 2, column 23 (the byte column is 24)", got)
	}
}
