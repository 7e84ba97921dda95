package report

import (
	"fmt"
	"io"
	"strings"
)

// writeText writes the headline (status, validator, seed), the counts, the aligned table of
// classes by outcome, then every finding in full, then the unclear samples, the skipped tools and
// the notes.
func writeText(w io.Writer, r *Report) error {
	s := summarize(r)
	v := s.outcome
	fmt.Fprintf(w, "%s  validator %s, profile %s%s%s: %d tools, %s, %d cases, %d findings\n", v.Status,
		EscapeLine(r.Validator),
		r.Profile, s.closedText(), s.seedText(), v.Checked, EscapeLine(v.SkippedText()), r.Cases, len(r.Findings))
	fmt.Fprintf(w, "%s\n\n", s.countsLine(EscapeLine))
	if err := s.classTable().WriteText(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n", s.legend())
	if len(r.Findings) > 0 {
		fmt.Fprintf(w, "\nfindings (one per tool, class, kind and schema place; each case minimal unless marked not "+
			"shrunk):\n")
		for _, f := range r.Findings {
			fmt.Fprintf(w, "\n%s %s\n", mark(f), EscapeLine(f.String()))
			if at := atText(r.At(f)); at != "" {
				fmt.Fprintf(w, "     at:     %s\n", EscapeLine(at))
			}
			fmt.Fprintf(w, "     args:   %s\n", showArgs(string(f.Args)))
			if note := f.ShrinkNote(); note != "" {
				fmt.Fprintf(w, "     shrunk: no, %s\n", strings.TrimPrefix(note, "not shrunk: "))
			}
			if f.Path != "" {
				fmt.Fprintf(w, "     path:   %s  keyword: %s\n", EscapeLine(f.Path), EscapeLine(f.Keyword))
			}
			if len(f.Issues) > 0 {
				fmt.Fprintf(w, "     issues: %s\n", EscapeLine(issuesText(f.Issues)))
			}
			if f.Detail != "" {
				fmt.Fprintf(w, "     %s\n",
					strings.ReplaceAll(EscapeText(strings.TrimRight(f.Detail, "\n")), "\n", "\n     "))
			}
			fmt.Fprintf(w, "     id:     %s (%s in the last pass)\n", f.ID, suchCases(f.Count))
		}
	}
	writeBaselineText(w, r)
	writeTail(w, r, s, tailStyle{
		unclear: "\nunclear answers (neither a rejection nor a call gone through; never a finding), samples:\n",
		skipped: "\nskipped tools (%d):\n", item: "  ", class: EscapeLine, sample: EscapeLine,
		skippedTool: func(s string) string { return strings.ReplaceAll(EscapeText(s), "\n", "\n    ") },
		stale:       EscapeLine,
		note:        func(s string) string { return strings.ReplaceAll(EscapeText(s), "\n", "\n      ") },
	})
	return nil
}

// mark is FAIL for a finding that fails the run, known for a blocking one a baseline lists,
// note for another.
func mark(f Finding) string {
	switch {
	case f.Fails():
		return "FAIL"
	case f.Known:
		return "known"
	}
	return "note"
}

// writeComparisonText writes the runs that stopped early (INTERRUPTED, as a run's report
// says), then a table: one row per class, one column per validator,
// "caught/cases" in each cell (for "valid": accepted unchanged/cases), then the totals by
// outcome, the seed, and every finding of every validator, one line each (the JSON form has them
// in full).
func writeComparisonText(w io.Writer, cmp *Comparison) error {
	m := newComparisonModel(cmp)
	if stopped := m.interrupted(); len(stopped) > 0 {
		for _, line := range stopped {
			fmt.Fprintf(w, "INTERRUPTED  %s\n", EscapeLine(line))
		}
		fmt.Fprintln(w)
	}
	if err := m.table().WriteText(w); err != nil {
		return err
	}
	if s := m.seedText(EscapeLine); s != "" {
		fmt.Fprintf(w, "\n%s\n", s)
	}
	for _, r := range cmp.Reports {
		if len(r.Findings) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nfindings of %s (%d; in full: --format json, or a run of this validator alone):\n",
			EscapeLine(r.Validator), len(r.Findings))
		for _, f := range r.Findings {
			fmt.Fprintf(w, "  %s %s\n       args %s  id %s\n", mark(f), EscapeLine(f.String()),
				showArgs(Truncate(string(f.Args), 160)),
				EscapeLine(f.ID))
		}
	}
	for _, r := range cmp.Reports {
		for _, s := range r.Skipped {
			fmt.Fprintf(w, "skipped by %s: %s\n", EscapeLine(r.Validator),
				strings.ReplaceAll(EscapeText(s.String()), "\n", "\n    "))
		}
	}
	return nil
}
