package classify

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
)

// verdictOrder is the order verdicts are written in.
var verdictOrder = []mutators.Reading{mutators.Valid, mutators.Invalid, mutators.Unexplained,
	mutators.Either, mutators.UnknownTool}

// WriteText writes the summary as tables: the verdicts, the classes by frequency with their
// variants and examples, and each tool's calls. It writes with the report's text primitives
// (report.Table, report.EscapeLine): what the log says (tool names, arguments, the lines it could
// not read) has its control characters escaped.
func WriteText(w io.Writer, s Summary) error {
	var verdicts []string
	for _, v := range verdictOrder {
		verdicts = append(verdicts, fmt.Sprintf("%d %s", s.Verdicts[v], v))
	}
	fmt.Fprintf(w, "%d calls of %d tools: %s\n", s.Calls, len(s.Tools), strings.Join(verdicts, ", "))
	for _, e := range s.Unreadable {
		fmt.Fprintf(w, "unreadable: %s\n", report.EscapeLine(e.Error()))
	}
	if len(s.UnknownTools) > 0 {
		names := make([]string, 0, len(s.UnknownTools))
		for n := range s.UnknownTools {
			names = append(names, n)
		}
		sort.Strings(names)
		for i, n := range names {
			names[i] = fmt.Sprintf("%s (%d)", report.EscapeLine(n), s.UnknownTools[n])
		}
		fmt.Fprintf(w, "unknown tools: %s\n", strings.Join(names, ", "))
	}
	fmt.Fprintln(w)
	writeClasses(w, s.Classes)
	for _, cc := range s.Classes {
		for _, e := range cc.Examples {
			fmt.Fprintf(w, "  e.g. %s/%s at %s (line %d, %s): %s\n", cc.Class, e.Variant,
				report.EscapeLine(pointer(e.Path)), e.Line,
				report.EscapeLine(e.Tool), report.EscapeLine(e.Args))
		}
	}
	fmt.Fprintln(w)
	return toolTable(s.Tools).WriteText(w)
}

// toolTable is the table of each tool's calls by verdict, with its distortions by class.
func toolTable(tools []ToolSummary) *report.Table {
	t := &report.Table{Ragged: true,
		Head: []string{"tool", "calls", "valid", "invalid", "unexplained", "either", "classes"}}
	for _, tc := range tools {
		var cs []string
		for _, cc := range tc.Classes {
			cs = append(cs, fmt.Sprintf("%s %d", cc.Class, cc.Distortions))
		}
		t.Rows = append(t.Rows, report.Row{Cells: []string{report.EscapeLine(tc.Tool), strconv.Itoa(tc.Calls),
			strconv.Itoa(tc.Verdicts[mutators.Valid]), strconv.Itoa(tc.Verdicts[mutators.Invalid]),
			strconv.Itoa(tc.Verdicts[mutators.Unexplained]), strconv.Itoa(tc.Verdicts[mutators.Either]),
			strings.Join(cs, ", ")}})
	}
	return t
}

// writeClasses writes the class table.
func writeClasses(w io.Writer, classes []ClassCount) {
	if len(classes) == 0 {
		fmt.Fprintln(w, "no distortion found")
		return
	}
	t := &report.Table{Ragged: true, Head: []string{"class", "distortions", "calls", "variants"}}
	for _, cc := range classes {
		var vs []string
		for _, v := range cc.Variants {
			vs = append(vs, fmt.Sprintf("%s %d", v.Variant, v.Count))
		}
		t.Rows = append(t.Rows,
			report.Row{Cells: []string{string(cc.Class), strconv.Itoa(cc.Distortions), strconv.Itoa(cc.Calls),
				strings.Join(vs, ", ")}})
	}
	t.WriteText(w)
}

// pointer writes a JSON Pointer, the root as (root).
func pointer(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}
