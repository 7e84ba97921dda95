package tool

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	data := []byte("[\n  {\"name\": \"read\", \"parameters\": {}},\n  {\"type\": \"function\", \"function\": {\n    " +
		"\"name\":\"read\"}},\n  {\"name\": \"a\\\"b\"}\n]\n")
	for _, c := range []struct {
		name      string
		line, col int
		ok        bool
	}{
		{"read", 2, 4, true},
		{"read__2", 4, 5, true},
		{"read__3", 0, 0, false},
		{`a"b`, 5, 4, true},
		{"write", 0, 0, false},
	} {
		line, col, ok := Locate(data, c.name)
		if line != c.line || col != c.col || ok != c.ok {
			t.Errorf("Locate(%q) = %d, %d, %v; want %d, %d, %v", c.name, line, col, ok, c.line, c.col, c.ok)
		}
	}
}

// LocateAll finds a place in a tool's parameters schema in each shape Parse reads: an array of
// definitions, an OpenAI "function" wrapper, an Anthropic input_schema, an MCP tools/list
// result, JSON Lines; and what the file does not write (a tool without parameters) nowhere.
func TestLocateAll(t *testing.T) {
	files := map[string]string{
		"array.json": "[\n  {\"name\": \"a\", \"parameters\": {\"type\": \"object\",\n    \"properties\": " +
			"{\"limit\": {\"type\": \"integer\", \"maximum\": 5}}}},\n" +
			"  {\"type\": \"function\", \"parameters\": {\"properties\": {\"limit\": {}}}, \"function\": {\"name\": " +
			"\"b\",\n    \"parameters\": {\"properties\": {\"limit\": {\"maximum\": 5}}}}},\n" +
			"  {\"name\": \"c\", \"input_schema\": {\"properties\": {\"q\": {\"minLength\": 1}}}},\n" +
			"  {\"name\": \"d\"}\n]\n",
		"mcp.json": `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "e", "inputSchema": {"properties": ` +
			`{"q": {"type": "string"}}}}]}}`,
		"lines.jsonl": "{\"name\": \"f\", \"parameters\": {\"properties\": {\"x\": {}}}}\n\r\n" +
			"  [{\"name\": \"g\", \"parameters\": {}}, {\"name\": \"h\", \"parameters\": {\"required\": [\"x\"]}}]\r\n",
	}
	for file, text := range files {
		set, err := Parse([]byte(text), file)
		if err != nil || len(set.Skipped) > 0 {
			t.Fatalf("%s: %v %v", file, err, set.Skipped)
		}
		// where each spot is, as the n-th occurrence of a text in the file: the name, then
		// /properties/limit/maximum, /properties/q, /required and the schema itself ("" : nowhere).
		type at struct {
			text string
			n    int
		}
		want := map[string][]at{
			"a": {{`"name"`, 1}, {`"maximum"`, 1}, {}, {}, {`"parameters"`, 1}},
			"b": {{`"name"`, 2}, {`"maximum"`, 2}, {}, {}, {`"parameters"`, 3}}, // not the outer parameters
			"c": {{`"name"`, 3}, {}, {`"q"`, 1}, {}, {`"input_schema"`, 1}},
			"d": {{`"name"`, 4}, {}, {}, {}, {}},
			"e": {{`"name"`, 1}, {}, {`"q"`, 1}, {}, {`"inputSchema"`, 1}},
			"f": {{`"name"`, 1}, {}, {}, {}, {`"parameters"`, 1}},
			"g": {{`"name"`, 2}, {}, {}, {}, {`"parameters"`, 2}},
			"h": {{`"name"`, 3}, {}, {}, {`"required"`, 1}, {`"parameters"`, 3}},
		}
		position := func(a at) Position {
			if a.text == "" {
				return Position{}
			}
			off := -1
			for range a.n {
				off += 1 + strings.Index(text[off+1:], a.text)
			}
			line := 1 + strings.Count(text[:off], "\n")
			return Position{line, off - strings.LastIndex(text[:off], "\n")}
		}
		for _, tl := range set.Tools {
			spots := []Spot{{Source: tl.Source, Name: true}, {Source: tl.Source, Schema: "/properties/limit/maximum"},
				{Source: tl.Source, Schema: "/properties/q"}, {Source: tl.Source,
					Schema: "/required"}, {Source: tl.Source}}
			got := LocateAll([]byte(text), spots)
			var w []Position
			for _, a := range want[tl.Name] {
				w = append(w, position(a))
			}
			if !slices.Equal(got, w) {
				t.Errorf("%s (%s): %v, want %v", tl.Name, tl.Source, got, w)
			}
			if o := OriginOf(tl.Source); o.File != file {
				t.Errorf("%s: the origin %+v is not in %s", tl.Name, o, file)
			}
		}
	}
}

func TestOriginOf(t *testing.T) {
	for src, want := range map[string]Origin{
		"tools.json":              {File: "tools.json"},
		"tools.json#3":            {File: "tools.json", Entry: "/3"},
		"d/t.json#result/tools/0": {File: "d/t.json", Entry: "/result/tools/0"},
		"t.jsonl:12":              {File: "t.jsonl", Line: 12},
		"t.jsonl:2#tools/1":       {File: "t.jsonl", Line: 2, Entry: "/tools/1"},
		"c:/x.json":               {File: "c:/x.json"},
		"t.jsonl:02":              {File: "t.jsonl:02"},
	} {
		if got := OriginOf(src); got != want {
			t.Errorf("OriginOf(%q) = %+v, want %+v", src, got, want)
		}
	}
}

// Load keeps the bytes of each file it read under the file each tool's Source names, for a
// file and for the files of a directory, so that LocateAll needs no second read.
func TestLoadKeepsTexts(t *testing.T) {
	dir := t.TempDir()
	texts := map[string]string{"a.json": `[{"name": "a"}]`, "sub/b.jsonl": "{\"name\": \"b\"}\n{\"name\": \"c\"}\n"}
	for name, text := range texts {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range []string{dir, filepath.Join(dir, "a.json")} {
		set, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range set.Tools {
			file := OriginOf(tl.Source).File
			rel, _ := filepath.Rel(dir, file)
			if got := string(set.Texts[file]); got != texts[filepath.ToSlash(rel)] {
				t.Errorf("Load(%s): the text of %s (%s) is %q, want %q", path, file, tl.Name, got,
					texts[filepath.ToSlash(rel)])
			}
		}
	}
}
