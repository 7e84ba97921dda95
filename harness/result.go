package harness

import (
	"fmt"
	"strings"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
)

// toolResult is what checking one tool found.
type toolResult struct {
	tool     string
	classes  map[string]*report.ClassStats
	findings []report.Finding
	bugs     int64  // generator values the oracle rejected
	bugText  string // the last of them
	unreach  int64
	unbuilt  []string // the patterns the generator built no string for (generate.Stats' Unbuilt)
	stale    []string // saved cases whose expectation the oracle no longer confirms
	notes    []string
	firsts   []report.Finding // the first case of each finding this tool shrank, as it was before
	source   report.Source    // where the tool is defined in its file, when it has a finding located (Files)
}

// noValue reports that the generator reached no valid value for the tool, so nothing was
// checked. Valid cases kept back (Options.OnlyReject, a gate that could not be given them) count
// as reached.
func (tr *toolResult) noValue() bool {
	st := tr.classes[string(corpus.Valid)]
	return st == nil || st.Cases+st.NotApplicable == 0
}

// noValueReason says why no value was reached: the patterns the generator could not construct a
// string for, when there are, else the draws that found none.
func (tr *toolResult) noValueReason() string {
	if len(tr.unbuilt) > 0 {
		return fmt.Sprintf("the generator could not construct a string for %s (%d draws found no valid value): "+
			"nothing could be checked (a limit of toolproof's generator, not of the schema: "+
			"a string the pattern matches in the property's \"examples\" or \"default\" is drawn instead)",
			strings.Join(tr.unbuilt, ", "), tr.unreach)
	}
	return fmt.Sprintf("the generator reached no valid value (%d draws found none): nothing could be checked",
		tr.unreach)
}

// newReport is the empty report of a run of the validator named name.
func newReport(name string, opts Options) *report.Report {
	return &report.Report{Validator: name, Profile: string(opts.profile()), Closed: opts.Close,
		Classes:  map[string]*report.ClassStats{},
		Findings: []report.Finding{}, Skipped: []report.Skipped{}, Checked: map[string][]string{},
		ClassOrder: ClassOrder()}
}

// ClassOrder is the order reports list the classes in (report.Report.ClassOrder): valid, then the
// class of every mutator in the mutators' order. A report read back from JSON is given it.
func ClassOrder() []string {
	out := []string{string(corpus.Valid)}
	for _, c := range mutators.Classes() {
		out = append(out, string(c))
	}
	return out
}

// addResult adds what checking one tool found to the report of the run.
func addResult(r *report.Report, tr *toolResult) {
	for c, st := range tr.classes {
		report.AddStats(r.Classes, c, st)
		if st.Cases > 0 {
			if r.Checked == nil {
				r.Checked = map[string][]string{}
			}
			r.Checked[c] = append(r.Checked[c], tr.tool)
		}
	}
	r.Findings = append(r.Findings, tr.findings...)
	if tr.source.File != "" {
		if r.Sources == nil {
			r.Sources = map[string]report.Source{}
		}
		r.Sources[tr.tool] = tr.source
	}
	r.GeneratorBugs += tr.bugs
	if tr.bugs > 0 {
		r.Notes = append(r.Notes,
			fmt.Sprintf("%s: generator bug, the oracle rejected %d generated values; last: %s",
				tr.tool, tr.bugs, tr.bugText))
	}
	r.Unreachable += tr.unreach
	r.Stale = append(r.Stale, tr.stale...)
	for _, n := range tr.notes {
		r.Notes = append(r.Notes, tr.tool+": "+n)
	}
}
