package tool

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// Locate finds where the tool named name is defined in the bytes of a tool file: the line and
// column (1-based, the column in bytes) of its "name" member. A name renamed because another
// tool had it (NAME__2, NAME__3: Set.Add) is the second, third, ... definition of NAME. ok is
// false when the file does not hold the name as a JSON member "name": "NAME".
func Locate(data []byte, name string) (line, col int, ok bool) {
	data = withoutBOM(data)
	nth := 1
	if i := strings.LastIndex(name, "__"); i > 0 {
		if n, err := strconv.Atoi(name[i+2:]); err == nil && n >= 2 {
			name, nth = name[:i], n
		}
	}
	quoted, err := json.Marshal(name)
	if err != nil {
		return 0, 0, false
	}
	// The value may be written with escapes the encoder would not use; the plain form is what
	// tool files hold, and the only one looked for.
	re := regexp.MustCompile(`"name"\s*:\s*` + regexp.QuoteMeta(string(quoted)))
	locs := re.FindAllIndex(data, nth)
	if len(locs) < nth {
		return 0, 0, false
	}
	off := locs[nth-1][0]
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col, true
}

// Origin is where Parse read a tool: the file, the line of a JSON Lines file the definition is
// on (0 when the file is one JSON document), and the JSON Pointer of the definition in that
// document or line.
type Origin struct {
	File  string
	Line  int
	Entry string
}

// OriginOf reads a tool's Source as Parse writes it: FILE, FILE#ENTRY, FILE:LINE or
// FILE:LINE#ENTRY. A Source that is not a tool file's (a validator's listing) gives an Origin
// whose File names no file. A file named on the command line whose name ends in :DIGITS reads
// as a line of the file before them.
func OriginOf(source string) Origin {
	var o Origin
	if i := strings.LastIndexByte(source, '#'); i >= 0 {
		source, o.Entry = source[:i], "/"+source[i+1:]
	}
	if i := strings.LastIndexByte(source, ':'); i > 0 {
		if n, err := strconv.Atoi(source[i+1:]); err == nil && n > 0 && strconv.Itoa(n) == source[i+1:] {
			source, o.Line = source[:i], n
		}
	}
	o.File = source
	return o
}

// Position is a line and a column in a file, 1-based, the column in bytes; the zero Position
// is unknown.
type Position struct {
	Line, Column int
}

// Spot is a place to find in a tool file: in the parameters schema of the tool read from
// Source (Tool.Source), the member or item the JSON Pointer Schema names ("" the schema itself);
// or, with Name, the "name" member of the tool's definition.
type Spot struct {
	Source string
	Schema string
	Name   bool
}

// LocateAll finds where data, the bytes of a tool file Parse read, writes each spot: at the key
// of a member, at the value of an item. A spot the file does not write (a tool without
// parameters, a Source of another file) is the zero Position. It reads data once for each of
// its documents (each line of a JSON Lines file) that holds a spot.
func LocateAll(data []byte, spots []Spot) []Position {
	data = withoutBOM(data)
	out := make([]Position, len(spots))
	lines := jsonvalue.LineStarts(data)
	byLine := map[int][]int{}
	var order []int
	for i, s := range spots {
		o := OriginOf(s.Source)
		if _, ok := byLine[o.Line]; !ok {
			order = append(order, o.Line)
		}
		byLine[o.Line] = append(byLine[o.Line], i)
	}
	for _, line := range order {
		doc, base := data, 0
		if line > 0 {
			if line > len(lines) {
				continue
			}
			base = lines[line-1]
			doc = data[base:]
			if end := bytes.IndexByte(doc, '\n'); end >= 0 {
				doc = doc[:end]
			}
		}
		for k, off := range locateIn(doc, spots, byLine[line]) {
			if off >= 0 {
				out[byLine[line][k]] = positionAt(lines, base+off)
			}
		}
	}
	return out
}

// schemaKeys are the members a definition may give its parameters schema in (fromObject).
var schemaKeys = []string{"parameters", "input_schema", "inputSchema"}

// locateIn finds the spots which (indices into spots) in one JSON document: the offset of each
// in doc, -1 when doc does not write it. A definition is read as fromObject reads it: inside its
// "function" member when that is an object (then it holds the name), in the first of schemaKeys
// it has.
func locateIn(doc []byte, spots []Spot, which []int) []int {
	var ptrs []string
	for _, i := range which {
		e := OriginOf(spots[i].Source).Entry
		for _, d := range []string{e + "/function", e} {
			ptrs = append(ptrs, d+"/name")
			for _, k := range schemaKeys {
				ptrs = append(ptrs, d+"/"+k, d+"/"+k+spots[i].Schema)
			}
		}
	}
	offs := jsonvalue.Offsets(doc, ptrs)
	out := make([]int, len(which))
	per := 2 * (1 + 2*len(schemaKeys))
	for k, i := range which {
		o := offs[k*per : (k+1)*per]
		def := o[per/2:] // the definition itself
		if o[0] >= 0 {
			def = o[:per/2] // its "function" member, which has the name
		}
		out[k] = -1
		if spots[i].Name {
			out[k] = def[0]
			continue
		}
		for j := range schemaKeys {
			if def[1+2*j] >= 0 {
				out[k] = def[2+2*j]
				break
			}
		}
	}
	return out
}

// positionAt is the line and column of offset off, given the offsets of the lines.
func positionAt(lines []int, off int) Position {
	l := sort.SearchInts(lines, off+1) // the first line starting after off
	return Position{Line: l, Column: off - lines[l-1] + 1}
}
