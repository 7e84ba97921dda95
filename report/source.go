package report

// Source is where a tool is defined: a position in a tool file, or, for a tool a validator lists
// itself (a node: module, an MCP server), what serves it.
type Source struct {
	File   string `json:"file,omitempty"`   // the tool file, as given (a path relative to the working directory)
	Line   int    `json:"line,omitempty"`   // 1-based line of the tool's definition in File
	Column int    `json:"column,omitempty"` // 1-based column, in bytes
	Served string `json:"served,omitempty"` // the validator that lists the tool (node:PATH, mcp:COMMAND)
}

// BaselineResult is what a baseline of known findings made of a run: which of its entries still
// reproduce (known: they do not fail the run) and which no longer do (fixed: they fail it, so
// that the baseline is trimmed).
type BaselineResult struct {
	File  string    `json:"file"`
	Known []Finding `json:"known"`
	Fixed []Finding `json:"fixed"`
}
