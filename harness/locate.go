package harness

import (
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

// locate says where in its tool file each finding of the tool p is, and each first case it
// shrank (tr.findings, tr.firsts), with the Gatekeeper p was checked with: the place in the file
// of the part of the tool's schema the finding is about (schemaPlace), and the tool's definition
// (the line and column of its "name", tr.source). A finding whose place the file does not write
// (a tool without parameters, a place reached through another document, raw text) gets no
// Location: the reports put it at its tool's definition. A tool whose file cannot be read is not
// located at all.
func (files Files) locate(p *prepared, tr *toolResult) {
	if files.Read == nil || len(tr.findings)+len(tr.firsts) == 0 {
		return
	}
	file := tool.OriginOf(p.tool.Source).File
	if file == "" {
		return
	}
	data := files.Read(file)
	if data == nil {
		return
	}
	name := file
	if files.Name != nil {
		name = files.Name(file)
	}
	var fs []*report.Finding
	for i := range tr.findings {
		fs = append(fs, &tr.findings[i])
	}
	for i := range tr.firsts {
		fs = append(fs, &tr.firsts[i])
	}
	spots, of := schemaSpots(p, fs)
	starts := jsonvalue.LineStarts(data)
	for k, at := range tool.LocateAll(data, spots) {
		if k == 0 { // the definition
			if at.Line == 0 {
				at.Line, at.Column, _ = tool.Locate(data, p.tool.Name)
			}
			tr.source = report.Source{File: name, Line: at.Line, Column: charColumn(data, starts, at.Line, at.Column)}
			continue
		}
		if f := fs[of[k]]; at.Line > 0 && f.Location == (report.Source{}) { // the first place of f the file writes
			f.Location = report.Source{File: name, Line: at.Line, Column: charColumn(data, starts, at.Line, at.Column),
				Schema: spots[k].Schema}
		}
	}
}

// schemaSpots are the places to find in p's tool file for the findings fs: first its tool's
// definition, then the schema place of each finding and every subschema above it up to the
// schema's root (of[k] is the finding of spot k, -1 for the definition). A place the file does not
// write (a keyword --close added: tool.Close) is in the nearest subschema above it that it writes.
func schemaSpots(p *prepared, fs []*report.Finding) ([]tool.Spot, []int) {
	spots, of := []tool.Spot{{Source: p.tool.Source, Name: true}}, []int{-1}
	for i, f := range fs {
		at, ok := schemaPlace(p.oracle, *f)
		for ; ok && at != ""; at = jsonvalue.Parent(at) {
			spots, of = append(spots, tool.Spot{Source: p.tool.Source, Schema: at}), append(of, i)
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
