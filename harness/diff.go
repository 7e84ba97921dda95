package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// valueDiff is a "-want +got" line diff of two JSON values, each written as indented canonical JSON
// (keys sorted, numbers as written, but a number of got equal as a JSON number to the one at the
// same place in want, 1 for 1.0, written as want writes it): lines only in want start with "-",
// lines only in got with "+", common lines with a space. It returns "" when the texts are equal.
func valueDiff(want, got any) string {
	a, b := indentedJSON(want), indentedJSON(alignNumbers(want, got))
	if a == b {
		return ""
	}
	return lineDiff(strings.Split(a, "\n"), strings.Split(b, "\n"))
}

// indentedJSON writes v as canonical JSON indented by two spaces; a value of other Go types as
// encoding/json writes it, and one that is no JSON at all as Go prints it, marked so.
func indentedJSON(v any) string {
	compact, err := jsonvalue.Marshal(v)
	if err != nil {
		// A value of a Go gate's own types (a struct it decoded into): as encoding/json writes it.
		var err2 error
		if compact, err2 = json.Marshal(v); err2 != nil {
			return fmt.Sprintf("(not JSON: %v) %#v", err, v)
		}
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return string(compact)
	}
	return out.String()
}

// maxDiffLines bounds the quadratic line diff; longer texts are shown whole, one after the other.
const maxDiffLines = 2000

// lineDiff is the shortest edit script between a and b (longest common subsequence), one line
// of output per line of input.
func lineDiff(a, b []string) string {
	var out strings.Builder
	emit := func(mark byte, line string) {
		out.WriteByte(mark)
		out.WriteByte(' ')
		out.WriteString(line)
		out.WriteByte('\n')
	}
	if len(a) > maxDiffLines || len(b) > maxDiffLines {
		for _, l := range a {
			emit('-', l)
		}
		for _, l := range b {
			emit('+', l)
		}
		return out.String()
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			emit(' ', a[i])
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			emit('-', a[i])
			i++
		default:
			emit('+', b[j])
			j++
		}
	}
	for ; i < len(a); i++ {
		emit('-', a[i])
	}
	for ; j < len(b); j++ {
		emit('+', b[j])
	}
	return out.String()
}

// alignNumbers returns got with every number that equals, as a JSON number, the number at the
// same place in want replaced by want's (so 1.0 and 1 are no change in a diff).
func alignNumbers(want, got any) any {
	switch g := got.(type) {
	case json.Number:
		if w, ok := want.(json.Number); ok && w != g && jsonvalue.Equal(w, g) {
			return w
		}
	case map[string]any:
		w, ok := want.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(g))
		for k, v := range g {
			out[k] = alignNumbers(w[k], v)
		}
		return out
	case []any:
		w, ok := want.([]any)
		if !ok {
			return got
		}
		out := make([]any, len(g))
		for i, v := range g {
			if i < len(w) {
				v = alignNumbers(w[i], v)
			}
			out[i] = v
		}
		return out
	}
	return got
}
