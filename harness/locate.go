package harness

import (
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/tool"
)

// Files gives the harness the text of the tool files the tools were read from (tool.Parse), so
// that it says where in them each finding is (report.Finding.Location) and where each tool with
// a finding is defined (report.Report.Sources). The zero Files locates nothing.
type Files struct {
	Read func(path string) []byte // the bytes of a tool file (tool.Set.Texts); nil when it cannot be read
	Name func(path string) string // the file's name in reports (a path relative to the working directory); nil keeps it
}

// placer places the findings of one run in their tool files: each file read (Files.Read) and
// indexed once, whichever worker asks first (its line starts, where each tool's definition
// begins), so that placing a tool's findings reads only its own definition.
type placer struct {
	files   Files
	entries map[string][]string // the entries (tool.Origin) of the run's tools in one-document files, by file
	mu      sync.Mutex
	texts   map[string]*toolText
}

// toolText is one tool file, indexed.
type toolText struct {
	data   []byte
	name   string         // as reports name it (Files.Name)
	starts []int          // the offsets of its lines
	at     map[string]int // where each entry's definition starts (absent: the file does not write it)
	ends   []int          // every such start, sorted: a definition ends before the next one
}

// newPlacer is the placer of the run of tools with files; nil (placing nothing) without Read.
func newPlacer(files Files, tools []tool.Tool) *placer {
	if files.Read == nil {
		return nil
	}
	pl := &placer{files: files, entries: map[string][]string{}, texts: map[string]*toolText{}}
	for _, t := range tools {
		if o := tool.OriginOf(t.Source); o.File != "" && o.Line == 0 && o.Entry != "" {
			pl.entries[o.File] = append(pl.entries[o.File], o.Entry)
		}
	}
	return pl
}

// text is the tool file file, indexed; nil when it cannot be read.
func (pl *placer) text(file string) *toolText {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if t, done := pl.texts[file]; done {
		return t
	}
	var t *toolText
	if data := pl.files.Read(file); data != nil {
		t = &toolText{data: data, name: file, starts: jsonvalue.LineStarts(data), at: map[string]int{}}
		if pl.files.Name != nil {
			t.name = pl.files.Name(file)
		}
		entries := pl.entries[file]
		for i, off := range jsonvalue.Offsets(data, entries) {
			if off >= 0 {
				t.at[entries[i]] = off
				t.ends = append(t.ends, off)
			}
		}
		sort.Ints(t.ends)
	}
	pl.texts[file] = t
	return t
}

// definition is the document that holds the definition of the tool read from source (origin
// o): its bytes, their offset in the file, and the source that names the definition in them.
func (t *toolText) definition(o tool.Origin, source string) ([]byte, int, string) {
	if o.Line > 0 { // a line of a JSON Lines file
		if o.Line > len(t.starts) {
			return nil, 0, source
		}
		base := t.starts[o.Line-1]
		end := len(t.data)
		if o.Line < len(t.starts) {
			end = t.starts[o.Line]
		}
		return t.data[base:end], base, "line" + entrySuffix(o.Entry)
	}
	base, ok := t.at[o.Entry]
	if !ok || t.data[base] != '{' { // not written, or a member's key (Offsets): the whole file
		return t.data, 0, source
	}
	end := len(t.data)
	if i := sort.SearchInts(t.ends, base+1); i < len(t.ends) {
		end = t.ends[i]
	}
	return t.data[base:end], base, "definition"
}

// entrySuffix is the #ENTRY a tool's Source ends in for the entry (a JSON Pointer), "" for none.
func entrySuffix(entry string) string {
	if entry == "" {
		return ""
	}
	return "#" + entry[1:]
}

// position is the line and column, in characters, of the position at in the document of t that
// starts at offset base (docStarts: its lines); the zero position stays zero.
func (t *toolText) position(at tool.Position, base int, docStarts []int) (line, col int) {
	if at.Line == 0 || at.Line > len(docStarts) {
		return 0, 0
	}
	off := base + docStarts[at.Line-1] + at.Column - 1
	line = sort.SearchInts(t.starts, off+1)
	return line, charColumn(t.data, t.starts, line, off-t.starts[line-1]+1)
}

// locate says where in its tool file each finding of the tool p is, and each first case it
// shrank (tr.findings, tr.firsts), with the Gatekeeper p was checked with: the place in the file
// of the part of the tool's schema the finding is about (schemaPlace), and the tool's definition
// (the line and column of its "name", tr.source). A finding whose place the file does not write
// (a tool without parameters, a place reached through another document, raw text) gets no
// Location: the reports put it at its tool's definition. A tool whose file cannot be read is not
// located at all.
func (pl *placer) locate(p *prepared, tr *toolResult) {
	if pl == nil || len(tr.findings)+len(tr.firsts) == 0 {
		return
	}
	o := tool.OriginOf(p.tool.Source)
	if o.File == "" {
		return
	}
	t := pl.text(o.File)
	if t == nil {
		return
	}
	var fs []*report.Finding
	for i := range tr.findings {
		fs = append(fs, &tr.findings[i])
	}
	for i := range tr.firsts {
		fs = append(fs, &tr.firsts[i])
	}
	doc, base, source := t.definition(o, p.tool.Source)
	spots, of := schemaSpots(source, p, fs)
	docStarts := jsonvalue.LineStarts(doc)
	for k, at := range tool.LocateAll(doc, spots) {
		line, col := t.position(at, base, docStarts)
		if k == 0 { // the definition
			if line == 0 {
				line, col, _ = tool.Locate(t.data, p.tool.Name)
				col = charColumn(t.data, t.starts, line, col)
			}
			tr.source = report.Source{File: t.name, Line: line, Column: col}
			continue
		}
		if f := fs[of[k]]; line > 0 && f.Location == (report.Source{}) { // the first place of f the file writes
			f.Location = report.Source{File: t.name, Line: line, Column: col, Schema: spots[k].Schema}
		}
	}
}

// schemaSpots are the places to find in p's tool definition (named source in its document) for
// the findings fs: first its tool's
// definition, then the schema place of each finding and every subschema above it up to the
// schema's root (of[k] is the finding of spot k, -1 for the definition). A place the file does not
// write (a keyword --close added: tool.Close) is in the nearest subschema above it that it writes.
func schemaSpots(source string, p *prepared, fs []*report.Finding) ([]tool.Spot, []int) {
	spots, of := []tool.Spot{{Source: source, Name: true}}, []int{-1}
	for i, f := range fs {
		at, ok := schemaPlace(p.oracle, *f)
		for ; ok && at != ""; at = jsonvalue.Parent(at) {
			spots, of = append(spots, tool.Spot{Source: source, Schema: at}), append(of, i)
		}
	}
	return spots, of
}

// charColumn is the 1-based column, in characters (Unicode code points), of the 1-based byte
// column col on line of data, whose lines start at starts; col itself when line is not in data.
func charColumn(data []byte, starts []int, line, col int) int {
	if line < 1 || line > len(starts) || col < 1 {
		return col
	}
	s := starts[line-1]
	return utf8.RuneCount(data[s:min(s+col-1, len(data))]) + 1
}
