package report

import (
	"fmt"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// Source is where a tool is defined: a position in a tool file, or, for a tool a validator lists
// itself (a node: module, an MCP server), what serves it. As a finding's Location it is the
// place in the tool file of the part of the tool's schema the finding is about.
type Source struct {
	File   string `json:"file,omitempty"`   // the tool file, as given (a path relative to the working directory)
	Line   int    `json:"line,omitempty"`   // 1-based line of the tool's definition in File (of Schema, when set)
	Column int    `json:"column,omitempty"` // 1-based column, in characters (Unicode code points, SARIF's unicodeCodePoints)
	Served string `json:"served,omitempty"` // the validator that lists the tool (node:PATH, mcp:COMMAND)
	// Schema is the JSON Pointer, in the tool's parameters schema, of the place Line and Column
	// are at (a keyword, or the subschema of a property); "" for the tool's definition.
	Schema string `json:"schema,omitempty"`
}

// String is FILE:LINE:COLUMN, as compilers write a place ("" when there is no file).
func (s Source) String() string {
	switch {
	case s.File == "":
		return ""
	case s.Line == 0:
		return s.File
	case s.Column == 0:
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)
}

// At is where the finding f is in its tool file: its Location when known, else its tool's
// definition (Sources); the zero Source when the report knows no file for it.
func (r *Report) At(f Finding) Source {
	if f.Location.File != "" && f.Location.Line > 0 {
		return f.Location
	}
	if s := r.Sources[f.Tool]; s.File != "" {
		return Source{File: s.File, Line: s.Line, Column: s.Column}
	}
	return Source{}
}

// atText is a place as the text reports write it: FILE:LINE:COLUMN, then the schema pointer
// when it is a place in the schema; "" for no file.
func atText(s Source) string {
	if s.File == "" {
		return ""
	}
	if s.Schema != "" {
		return s.String() + "  schema: " + s.Schema
	}
	return s.String()
}

// Files is how Locate reads tool files.
type Files struct {
	Read func(path string) []byte // the bytes of a tool file; nil when it cannot be read
	Name func(path string) string // the file's name in reports (a path relative to the working directory); nil keeps it
}

// Locate says where in their tool files the findings of tools read from files (tool.Parse) are:
// Sources gets each such tool's definition (the line and column of its "name"), and each of its
// findings, and each first case a shard keeps for merge, a Location: the place in the file of
// the part of the tool's schema the finding is about (see Finding.Location). A finding whose
// place the file does not write (a tool without parameters, a place reached through another
// document, raw text) gets no Location: the reports put it at its tool's definition. A tool
// whose file cannot be read is left out of Sources.
func Locate(reports []*Report, tools []tool.Tool, files Files) {
	l := locator{tools: map[string]tool.Tool{}, wanted: map[string][]wanted{}}
	for _, t := range tools {
		l.tools[t.Name] = t
	}
	// The findings by tool, so that one compiled schema at a time is held.
	type item struct {
		r    *Report
		f    *Finding
		defs map[string]bool
	}
	byTool := map[string][]item{}
	var names []string
	add := func(it item) {
		if _, ok := byTool[it.f.Tool]; !ok {
			names = append(names, it.f.Tool)
		}
		byTool[it.f.Tool] = append(byTool[it.f.Tool], it)
	}
	for _, r := range reports {
		defs := map[string]bool{}
		for t := range r.Sources {
			defs[t] = true
		}
		for i := range r.Findings {
			add(item{r, &r.Findings[i], defs})
		}
		if r.Shard != nil {
			for i := range r.Shard.Shrinks {
				add(item{r, &r.Shard.Shrinks[i].First, defs})
			}
		}
	}
	for _, name := range names {
		gk := l.gate(name)
		for _, it := range byTool[name] {
			l.want(it.r, it.f, it.defs, gk)
		}
	}
	for _, file := range l.order {
		l.find(file, files)
	}
}

// wanted is a place Locate looks for: the definition of the tool of f for r's Sources (with
// def), or the place of f's schema.
type wanted struct {
	spot tool.Spot
	r    *Report
	f    *Finding
	def  bool
}

// locator gathers the places Locate looks for, by file.
type locator struct {
	tools  map[string]tool.Tool
	wanted map[string][]wanted
	order  []string // the files, in the order first wanted
}

// gate is the tool's schema compiled, nil when the tool is not read from a file or does not
// compile.
func (l *locator) gate(name string) *oracle.Gatekeeper {
	t, ok := l.tools[name]
	if !ok || tool.OriginOf(t.Source).File == "" {
		return nil
	}
	gk, _ := oracle.Compile(t)
	return gk
}

// want adds the places to find for the finding f of r: its schema's (gk: its tool's schema
// compiled), and its tool's definition unless r has it (defs).
func (l *locator) want(r *Report, f *Finding, defs map[string]bool, gk *oracle.Gatekeeper) {
	t, ok := l.tools[f.Tool]
	file := tool.OriginOf(t.Source).File
	if !ok || file == "" {
		return
	}
	if _, seen := l.wanted[file]; !seen {
		l.order = append(l.order, file)
	}
	if !defs[f.Tool] {
		defs[f.Tool] = true
		l.wanted[file] = append(l.wanted[file], wanted{spot: tool.Spot{Source: t.Source, Name: true}, r: r, f: f, def: true})
	}
	if gk == nil {
		return
	}
	p, ok := schemaPlace(gk, *f)
	// A place the file does not write (a keyword --close added: tool.Close) is in the nearest
	// subschema above it that the file writes.
	for ; ok && p != ""; p = jsonvalue.Parent(p) {
		l.wanted[file] = append(l.wanted[file], wanted{spot: tool.Spot{Source: t.Source, Schema: p}, r: r, f: f})
	}
}

// find locates the places wanted in one file.
func (l *locator) find(file string, files Files) {
	data := files.Read(file)
	if data == nil {
		return
	}
	name := file
	if files.Name != nil {
		name = files.Name(file)
	}
	ws := l.wanted[file]
	spots := make([]tool.Spot, len(ws))
	for i, w := range ws {
		spots[i] = w.spot
	}
	located := map[*Finding]bool{}
	starts := jsonvalue.LineStarts(data)
	for i, p := range tool.LocateAll(data, spots) {
		w := ws[i]
		if w.def && p.Line == 0 {
			p.Line, p.Column, _ = tool.Locate(data, w.f.Tool)
		}
		p.Column = charColumn(data, starts, p.Line, p.Column)
		switch {
		case w.def:
			if w.r.Sources == nil {
				w.r.Sources = map[string]Source{}
			}
			w.r.Sources[w.f.Tool] = Source{File: name, Line: p.Line, Column: p.Column}
		case p.Line > 0 && !located[w.f]: // the first place of the finding the file writes
			located[w.f] = true
			w.f.Location = Source{File: name, Line: p.Line, Column: p.Column, Schema: w.spot.Schema}
		}
	}
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

// BaselineResult is what a baseline of known findings made of a run: which of its entries still
// reproduce (known: they do not fail the run) and which no longer do (fixed: they fail it, so
// that the baseline is trimmed).
type BaselineResult struct {
	File  string    `json:"file"`
	Known []Finding `json:"known"`
	Fixed []Finding `json:"fixed"`
}
