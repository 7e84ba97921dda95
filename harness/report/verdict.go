package report

import (
	"fmt"
	"slices"
	"strings"
)

// Outcome is the outcome of a run as every format states it, decided once from the report: its
// status, the tools checked, and the tools skipped by name.
type Outcome struct {
	// Status is PASS, FAIL, INTERRUPTED, or UNCHECKED for a run that checked no tool (every
	// tool skipped, or none given): a run that checked nothing does not pass.
	Status  string
	Checked int      // the tools checked
	Skipped []string // the tools skipped, by name ("(unnamed) SOURCE" for a tool without one)
	Reason  string   // INTERRUPTED: why the run stopped (Report.Interrupted)
}

// verdictNames is how many skipped tools a verdict line names before it counts the rest.
const verdictNames = 5

// Outcome decides the outcome of the run from Passed, Interrupted and the tools checked.
func (r *Report) Outcome() Outcome {
	v := Outcome{Status: "FAIL", Checked: r.Tools, Reason: r.Interrupted}
	switch {
	case r.Interrupted != "":
		v.Status = "INTERRUPTED"
	case r.Passed:
		v.Status = "PASS"
	case r.Tools == 0:
		v.Status = "UNCHECKED"
	}
	for _, s := range r.Skipped {
		name := s.Tool
		if name == "" {
			name = "(unnamed) " + s.Source
		}
		v.Skipped = append(v.Skipped, name)
	}
	return v
}

// Line is String with the reason an interrupted run stopped: the verdict as reports state it
// beside the findings (HTML, SARIF, JUnit).
func (v Outcome) Line() string {
	if v.Reason == "" {
		return v.String()
	}
	return v.String() + "; interrupted: " + v.Reason
}

// worst is the status of several runs shown together: INTERRUPTED when one was, else FAIL when
// one failed, else UNCHECKED when one checked nothing, else PASS.
func worst(statuses ...string) string {
	for _, s := range []string{"INTERRUPTED", "FAIL", "UNCHECKED"} {
		if slices.Contains(statuses, s) {
			return s
		}
	}
	return "PASS"
}

// Word is the status as a word of a sentence: passed, failed, interrupted, checked nothing.
func (v Outcome) Word() string {
	return map[string]string{"PASS": "passed", "FAIL": "failed", "INTERRUPTED": "interrupted",
		"UNCHECKED": "checked nothing"}[v.Status]
}

// SkippedText is the count of the skipped tools with the first of their names: "0 skipped",
// "2 skipped (a, b)", "7 skipped (a, b, c, d, e and 2 more)".
func (v Outcome) SkippedText() string {
	n := len(v.Skipped)
	if n == 0 {
		return "0 skipped"
	}
	names := v.Skipped
	more := ""
	if n > verdictNames {
		names, more = names[:verdictNames], fmt.Sprintf(" and %d more", n-verdictNames)
	}
	return fmt.Sprintf("%d skipped (%s%s)", n, strings.Join(names, ", "), more)
}

// String is the verdict in one line: "PASS: 3 tools checked, 0 skipped".
func (v Outcome) String() string {
	return fmt.Sprintf("%s: %d tools checked, %s", v.Status, v.Checked, v.SkippedText())
}
