package report

import (
	"fmt"
	"io"
)

// blockingWord is a finding's blocking column: yes, no, or known (blocking, but listed in the
// baseline and still reproducing).
func blockingWord(f Finding) string {
	switch {
	case f.Known:
		return "known"
	case f.Blocking:
		return "yes"
	}
	return "no"
}

// writeBaselineText lists what the baseline made of the run: the fixed entries in full (they fail
// the run) and the known ones, one line each.
func writeBaselineText(w io.Writer, r *Report) {
	b := r.Baseline
	if b == nil {
		return
	}
	fmt.Fprintf(w, "\nbaseline %s: %d known (still reproduce; they do not fail the run), %d fixed\n", b.File,
		len(b.Known), len(b.Fixed))
	for _, f := range b.Fixed {
		fmt.Fprintf(w, "\nFIXED %s\n", f.String())
		fmt.Fprintf(w, "     args:   %s\n", showArgs(string(f.Args)))
		fmt.Fprintf(w, "     id:     %s: no longer reproduces; remove it from the baseline (toolproof baseline on "+
			"this run's JSON report)\n", f.ID)
	}
	if len(b.Known) > 0 {
		fmt.Fprintln(w)
	}
	for _, f := range b.Known {
		fmt.Fprintf(w, "known %s [%s]\n", f.String(), f.ID)
	}
}

// writeBaselineMarkdown is writeBaselineText in Markdown.
func writeBaselineMarkdown(w io.Writer, r *Report) {
	b := r.Baseline
	if b == nil {
		return
	}
	fmt.Fprintf(w, "\nBaseline %s: %d known (still reproduce; they do not fail the run), %d fixed (no longer "+
		"reproduce: remove them from the baseline).\n",
		mdCode(b.File), len(b.Known), len(b.Fixed))
	if len(b.Known)+len(b.Fixed) == 0 {
		return
	}
	fmt.Fprintf(w, "\n| baseline | tool | class | kind | args | id |\n|---|---|---|---|---|---|\n")
	for _, set := range []struct {
		word string
		fs   []Finding
	}{{"fixed", b.Fixed}, {"known", b.Known}} {
		for _, f := range set.fs {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", set.word, mdText(f.Tool), mdText(string(f.Class)),
				mdText(string(f.Kind)), mdCode(Truncate(string(f.Args), 120)), mdText(f.ID))
		}
	}
}
