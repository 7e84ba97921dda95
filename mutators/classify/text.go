package classify

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/toolproof/toolproof/mutators"
)

// verdictOrder is the order verdicts are written in.
var verdictOrder = []mutators.Verdict{mutators.Valid, mutators.Invalid, mutators.Unexplained, mutators.Either, mutators.UnknownTool}

// WriteText writes the summary as tables: the verdicts, the classes by frequency with their
// variants and examples, and each tool's calls.
func WriteText(w io.Writer, s Summary) error {
	var verdicts []string
	for _, v := range verdictOrder {
		verdicts = append(verdicts, fmt.Sprintf("%d %s", s.Verdicts[v], v))
	}
	fmt.Fprintf(w, "%d calls of %d tools: %s\n", s.Calls, len(s.Tools), strings.Join(verdicts, ", "))
	for _, e := range s.Unreadable {
		fmt.Fprintf(w, "unreadable: %s\n", e)
	}
	if len(s.UnknownTools) > 0 {
		names := make([]string, 0, len(s.UnknownTools))
		for n := range s.UnknownTools {
			names = append(names, n)
		}
		sort.Strings(names)
		for i, n := range names {
			names[i] = fmt.Sprintf("%s (%d)", n, s.UnknownTools[n])
		}
		fmt.Fprintf(w, "unknown tools: %s\n", strings.Join(names, ", "))
	}
	fmt.Fprintln(w)
	writeClasses(w, s.Classes)
	for _, cc := range s.Classes {
		for _, e := range cc.Examples {
			fmt.Fprintf(w, "  e.g. %s/%s at %s (line %d, %s): %s\n", cc.Class, e.Variant, pointer(e.Path), e.Line, e.Tool, e.Args)
		}
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "tool\tcalls\tvalid\tinvalid\tunexplained\teither\tclasses")
	for _, t := range s.Tools {
		var cs []string
		for _, cc := range t.Classes {
			cs = append(cs, fmt.Sprintf("%s %d", cc.Class, cc.Distortions))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", t.Tool, t.Calls, t.Verdicts[mutators.Valid], t.Verdicts[mutators.Invalid],
			t.Verdicts[mutators.Unexplained], t.Verdicts[mutators.Either], strings.Join(cs, ", "))
	}
	return tw.Flush()
}

// writeClasses writes the class table.
func writeClasses(w io.Writer, classes []ClassCount) {
	if len(classes) == 0 {
		fmt.Fprintln(w, "no distortion found")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "class\tdistortions\tcalls\tvariants")
	for _, cc := range classes {
		var vs []string
		for _, v := range cc.Variants {
			vs = append(vs, fmt.Sprintf("%s %d", v.Variant, v.Count))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", cc.Class, cc.Distortions, cc.Calls, strings.Join(vs, ", "))
	}
	tw.Flush()
}

// pointer writes a JSON Pointer, the root as (root).
func pointer(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}
