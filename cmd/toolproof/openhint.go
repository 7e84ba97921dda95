package main

import (
	"fmt"
	"io"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
)

// writeOpenHint points at audit and --close, under the text report, when hallucinated_key had
// nothing to distort in some draws of a run without --close: their objects are open, so an invented
// key is valid there and the run cannot say whether the gate would drop or refuse it.
func writeOpenHint(w io.Writer, reports []*report.Report, prog string) {
	for _, r := range reports {
		st := r.Classes[string(mutators.HallucinatedKey)]
		if r.Closed || st == nil || st.NotApplicable == 0 {
			continue
		}
		fmt.Fprintf(w, "\nhallucinated_key n/a %d times: objects in these tools are open, so invented keys are valid "+
			"there;\n"+
			"  %s audit --tools FILE shows where the schemas let distortions through, and\n"+
			"  %s run --close checks them closed, as OpenAI strict mode sends them\n", st.NotApplicable, prog, prog)
		return
	}
}
