package tool

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// Locate finds where the tool named name is defined in the bytes of a tool file: the line and
// column (1-based, the column in bytes) of its "name" member. A name renamed because another
// tool had it (NAME__2, NAME__3: Set.Add) is the second, third, ... definition of NAME. ok is
// false when the file does not hold the name as a JSON member "name": "NAME".
func Locate(data []byte, name string) (line, col int, ok bool) {
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
