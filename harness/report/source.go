package report

import "fmt"

// Source is where a tool is defined: a position in a tool file, or, for a tool a validator lists
// itself (a node: module, an MCP server), what serves it. As a finding's Location it is the
// place in the tool file of the part of the tool's schema the finding is about.
type Source struct {
	File string `json:"file,omitempty"` // the tool file, as given (a path relative to the working directory)
	Line int    `json:"line,omitempty"` // 1-based line of the tool's definition in File (of Schema, when set)
	// Column is the 1-based column, in characters (Unicode code points, SARIF's unicodeCodePoints).
	Column int    `json:"column,omitempty"`
	Served string `json:"served,omitempty"` // the validator that lists the tool (node:PATH, mcp:COMMAND)
	// Package is the installed package (npm) that defines a tool a validator lists, when its
	// file is inside node_modules: the server's code, not a place of the user's; File is "" then.
	Package string `json:"package,omitempty"`
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
	if s := r.Sources[f.Tool]; s.File != "" || s.Package != "" {
		return Source{File: s.File, Line: s.Line, Column: s.Column, Package: s.Package}
	}
	return Source{}
}

// atText is a place as the text reports write it: FILE:LINE:COLUMN, then the schema pointer
// when it is a place in the schema; "" for no file.
func atText(s Source) string {
	if s.File == "" && s.Package != "" {
		return "in the installed package " + s.Package + " (node_modules): the server's code, not yours"
	}
	if s.File == "" {
		return ""
	}
	if s.Schema != "" {
		return s.String() + "  schema: " + s.Schema
	}
	return s.String()
}

// BaselineResult is what a baseline of known findings made of a run: which of its entries still
// reproduce (known: they do not fail the run) and which no longer do (fixed: they fail it, so
// that the baseline is trimmed).
type BaselineResult struct {
	File  string    `json:"file"`
	Known []Finding `json:"known"`
	Fixed []Finding `json:"fixed"`
}
