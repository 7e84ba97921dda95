package tool

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/pattern"
)

// Tool is one tool a model can call.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"` // JSON Schema of the arguments object
	Source      string          `json:"-"`          // where it was read, "file:entry", for messages
}

// SchemaHash is a short, stable hash of the tool's parameters schema in canonical form, so that
// saved cases can tell whether the schema they were made for has changed.
func (t Tool) SchemaHash() string {
	b := []byte(t.Parameters)
	if v, err := jsonvalue.Parse(b); err == nil {
		b = jsonvalue.MustMarshal(v)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Where names the tool and where it came from, for messages.
func (t Tool) Where() string {
	if t.Source == "" {
		return fmt.Sprintf("tool %q", t.Name)
	}
	return fmt.Sprintf("tool %q (%s)", t.Name, t.Source)
}

// PatternWarnings lists the tool's patterns whose syntax not every regex dialect has (inline
// flags, lookaround, \p{...}, \Z, ...), each naming the pattern and its JSON Pointer in the
// parameters schema. Validators in other languages may refuse or misread such a pattern.
func (t Tool) PatternWarnings() []string {
	var out []string
	for _, w := range pattern.Warnings(t.Parameters) {
		out = append(out, t.Where()+": "+w.String())
	}
	return out
}

// Skipped is a tool definition that could not be used, with the reason.
type Skipped struct {
	Tool   string `json:"tool"`   // the tool name, or "" if it has none
	Source string `json:"source"` // file and entry
	Reason string `json:"reason"`
}

func (s Skipped) String() string {
	name := s.Tool
	if name == "" {
		name = "(unnamed)"
	}
	return fmt.Sprintf("%s (%s): %s", name, s.Source, s.Reason)
}

// Set is the tools read from one or more files, with the definitions that were skipped.
type Set struct {
	Tools   []Tool
	Skipped []Skipped
	Renamed []string // notes on tools renamed because another tool had their name
	// Warnings are the tools' patterns not every regex dialect reads alike (Tool.PatternWarnings).
	Warnings []string
	// Texts are the bytes of each tool file Load read, by the file its tools' Source names
	// (OriginOf): where a place in a tool's schema is written is found in them (LocateAll) rather
	// than in a second read, which a pipe cannot give and a file edited since would answer wrongly.
	Texts map[string][]byte
	// Unread counts the files of a directory LoadContext left unread because its context was
	// done; their tools are not in the set.
	Unread int

	names map[string]int
	next  map[string]int // the next suffix to try for a name (renaming n tools of one name is linear)
}

// Lookup returns the tool with the given name.
func (s Set) Lookup(name string) (Tool, bool) {
	for _, t := range s.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// Pick returns the tools with the given names, in the order given; the error names the first
// one the set does not hold.
func (s Set) Pick(names ...string) ([]Tool, error) {
	out := make([]Tool, 0, len(names))
	for _, n := range names {
		t, ok := s.Lookup(n)
		if !ok {
			return nil, fmt.Errorf("no tool %q in the set", n)
		}
		out = append(out, t)
	}
	return out, nil
}

// Add appends t. A tool whose name is already in the set is kept under the name NAME__2 (then
// __3, ...), so that every tool in a set has its own name and nothing is lost; Renamed says so.
func (s *Set) Add(t Tool) {
	if s.names == nil {
		s.names = map[string]int{}
	}
	if i, ok := s.names[t.Name]; ok {
		o := s.Tools[i]
		same := ""
		if o.SchemaHash() == t.SchemaHash() {
			same = " (with the same schema)"
		}
		base := t.Name
		if s.next == nil {
			s.next = map[string]int{}
		}
		for k := max(s.next[base], 2); ; k++ {
			name := fmt.Sprintf("%s__%d", base, k)
			if _, taken := s.names[name]; !taken {
				t.Name = name
				s.next[base] = k + 1
				break
			}
		}
		s.Renamed = append(s.Renamed, fmt.Sprintf("%s (%s): renamed %s, another tool at %s has that name%s",
			base, t.Source, t.Name, o.Source, same))
	}
	s.names[t.Name] = len(s.Tools)
	s.Tools = append(s.Tools, t)
	s.Warnings = append(s.Warnings, t.PatternWarnings()...)
}

// Merge appends the tools, skipped entries and notes of o.
func (s *Set) Merge(o Set) {
	for _, t := range o.Tools {
		s.Add(t)
	}
	s.Skipped = append(s.Skipped, o.Skipped...)
	s.Renamed = append(s.Renamed, o.Renamed...)
	s.Unread += o.Unread
	for name, data := range o.Texts {
		s.keepText(name, data)
	}
}

// keepText records data as the bytes of the tool file name.
func (s *Set) keepText(name string, data []byte) {
	if s.Texts == nil {
		s.Texts = map[string][]byte{}
	}
	s.Texts[name] = data
}

// Load reads the tools at path: a file (one tool, an array, an MCP tools/list result, or JSON
// Lines) or a directory, whose .json and .jsonl files are read in name order. One rule: the path
// given must be there and, for a file, be JSON or JSON Lines (else an error naming the file, the
// line and the column); what is inside it and cannot be used, a definition in a file or a file
// in a directory, is skipped with its reason, and the rest is read.
func Load(path string) (Set, error) { return LoadContext(context.Background(), path) }

// LoadContext is Load, stopped when ctx is done: the files of a directory are read until then,
// the rest counted in Set.Unread, so a stop while 100,000 files are read does not wait for them.
func LoadContext(ctx context.Context, path string) (Set, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Set{}, err
	}
	if !info.IsDir() {
		// A file named on its own may be a pipe (--tools <(...)): read, within MaxFileSize.
		data, err := readAtMost(path)
		if err != nil {
			return Set{}, fmt.Errorf("%s: %v", path, err)
		}
		set, err := Parse(data, path)
		if err == nil {
			set.keepText(path, data)
		}
		return set, err
	}
	return loadFS(ctx, os.DirFS(path), ".", path)
}

// LoadFS reads the .json and .jsonl files under dir in fsys, in name order; a file that cannot
// be read or is not JSON is skipped with its reason. prefix is put before file names in sources
// and messages.
func LoadFS(fsys fs.FS, dir, prefix string) (Set, error) {
	return loadFS(context.Background(), fsys, dir, prefix)
}

// loadFS is LoadFS, stopped when ctx is done (the files not read counted in Set.Unread).
func loadFS(ctx context.Context, fsys fs.FS, dir, prefix string) (Set, error) {
	var files []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext == ".json" || ext == ".jsonl" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return Set{}, err
	}
	slices.Sort(files)
	if len(files) == 0 {
		return Set{}, fmt.Errorf("%s: no .json or .jsonl files", prefix)
	}
	var set Set
	for i, f := range files {
		if ctx.Err() != nil {
			set.Unread = len(files) - i
			break
		}
		name := f
		if prefix != "" {
			name = filepath.Join(prefix, strings.TrimPrefix(f, dir+"/"))
		}
		data, err := readFile(fsys, f)
		if err != nil {
			set.Skipped = append(set.Skipped, Skipped{Source: name, Reason: "the file is skipped: " + err.Error()})
			continue
		}
		s, err := Parse(data, name)
		if err != nil {
			set.Skipped = append(set.Skipped, Skipped{Source: name, Reason: "the file is skipped: " + err.Error()})
			continue
		}
		s.keepText(name, data)
		set.Merge(s)
	}
	return set, nil
}

// Parse reads tool definitions from data; file names the data in sources and messages. A UTF-8
// byte order mark at the start is no part of the text (positions count from after it).
func Parse(data []byte, file string) (Set, error) {
	data = withoutBOM(data)
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return Set{}, fmt.Errorf("%s: empty file", file)
	}
	var doc any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	errWhole := d.Decode(&doc)
	if errWhole == nil && len(bytes.TrimSpace(data[d.InputOffset():])) == 0 {
		if err := strictText(file, data, 0); err != nil {
			return Set{}, err
		}
		var set Set
		collect(&set, doc, file, "")
		return set, nil
	}
	// JSON Lines: one definition (or array of them) a line.
	// The lines are walked in place (no slice of them): memory stays proportional to the
	// definitions, not to the number of lines.
	var set Set
	first := firstLine(data)
	i := -1
	for raw := range bytes.SplitSeq(data, []byte("\n")) {
		i++
		line := bytes.TrimSpace(raw)
		if len(line) == 0 {
			continue
		}
		var v any
		ld := json.NewDecoder(bytes.NewReader(line))
		ld.UseNumber()
		if err := ld.Decode(&v); err != nil || len(bytes.TrimSpace(line[ld.InputOffset():])) > 0 {
			if i == first {
				// Not JSON Lines either: where the document as a whole breaks.
				if errWhole != nil {
					return Set{}, syntaxError(file, data, 0, errWhole)
				}
				rest := data[d.InputOffset():]
				l, c := position(data, d.InputOffset()+int64(len(rest)-len(bytes.TrimLeft(rest, " \t\r\n"))))
				return Set{}, fmt.Errorf("%s:%d:%d: not JSON: more text after the JSON value, from here", file, l, c)
			}
			if err == nil {
				rest := line[ld.InputOffset():]
				col := int(ld.InputOffset()) + len(rest) - len(bytes.TrimLeft(rest, " \t")) + 1 +
					(len(raw) - len(bytes.TrimLeft(raw, " \t\r")))
				return Set{}, fmt.Errorf("%s:%d:%d: not JSON Lines: a second value on the line, from here",
					file, i+1, col)
			}
			lead := len(raw) - len(bytes.TrimLeft(raw, " \t\r"))
			return Set{}, syntaxError(file, append(bytes.Repeat([]byte{' '}, lead), line...), i+1, err)
		}
		if err := strictText(file, raw, i+1); err != nil {
			return Set{}, err
		}
		collect(&set, v, fmt.Sprintf("%s:%d", file, i+1), "")
	}
	return set, nil
}

// collect adds the tools in v, a definition, an array of them, or a {"tools": [...]} wrapper.
func collect(set *Set, v any, file, entry string) {
	where := file
	if entry != "" {
		where = file + "#" + entry
	}
	switch v := v.(type) {
	case []any:
		for i, e := range v {
			collect(set, e, file, joinEntry(entry, fmt.Sprint(i)))
		}
	case map[string]any:
		if tools, ok := v["tools"].([]any); ok && v["name"] == nil {
			collect(set, tools, file, joinEntry(entry, "tools"))
			return
		}
		if res, ok := v["result"].(map[string]any); ok && v["name"] == nil {
			if tools, ok := res["tools"].([]any); ok {
				collect(set, tools, file, joinEntry(entry, "result/tools"))
				return
			}
		}
		t, err := fromObject(v)
		t.Source = where
		if err != nil {
			set.Skipped = append(set.Skipped, Skipped{Tool: t.Name, Source: where, Reason: err.Error()})
			return
		}
		set.Add(t)
	default:
		set.Skipped = append(set.Skipped, Skipped{Source: where,
			Reason: fmt.Sprintf("a tool definition must be a JSON object, found %s", jsonvalue.TypeName(v))})
	}
}

func joinEntry(a, b string) string {
	if a == "" {
		return b
	}
	return a + "/" + b
}

// looksLikeSchema reports whether an object without a name is a JSON Schema (of the arguments,
// most likely) rather than a tool definition.
func looksLikeSchema(m map[string]any) bool {
	if _, ok := m["$schema"]; ok {
		return true
	}
	if _, ok := m["properties"].(map[string]any); ok {
		return true
	}
	switch m["type"] {
	case "object", "array", "string", "number", "integer", "boolean", "null":
		return true
	}
	_, ok := m["type"].([]any)
	return ok
}

// fromObject reads one definition in any of the supported envelopes.
func fromObject(m map[string]any) (Tool, error) {
	if fn, ok := m["function"].(map[string]any); ok {
		m = fn // OpenAI Chat Completions: {"type":"function","function":{...}}
	}
	var t Tool
	name, ok := m["name"].(string)
	if !ok || name == "" {
		if m["name"] == nil {
			if looksLikeSchema(m) {
				return t, fmt.Errorf("no \"name\": this is a JSON Schema, not a tool definition; " +
					"give it to toolproof gen --schema FILE, or wrap it as {\"name\": \"...\", \"parameters\": SCHEMA}")
			}
			return t, fmt.Errorf("no \"name\"")
		}
		return t, fmt.Errorf("\"name\" must be a non-empty string")
	}
	t.Name = name
	if d, ok := m["description"].(string); ok {
		t.Description = d
	}
	var schema any
	found := ""
	for _, key := range []string{"parameters", "input_schema", "inputSchema"} {
		if s, ok := m[key]; ok {
			if found != "" {
				return t, fmt.Errorf("both %q and %q given", found, key)
			}
			schema, found = s, key
		}
	}
	switch s := schema.(type) {
	case nil:
		if found != "" {
			return t, fmt.Errorf("%q is null", found)
		}
		schema = map[string]any{"type": "object", "properties": map[string]any{}}
	case map[string]any, bool:
	default:
		return t, fmt.Errorf("%q must be a JSON Schema object, found %s", found, jsonvalue.TypeName(s))
	}
	b, err := jsonvalue.Marshal(schema)
	if err != nil {
		return t, fmt.Errorf("%s: %v", found, err)
	}
	t.Parameters = b
	return t, nil
}
