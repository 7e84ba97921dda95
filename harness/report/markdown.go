package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// writeMarkdown writes the headline with the seed, the counts, the class table, the findings
// table, the unclear samples, the skipped tools and the notes as Markdown.
func writeMarkdown(w io.Writer, r *Report) error {
	s := summarize(r)
	v := s.outcome
	fmt.Fprintf(w, "### toolproof: %s %s (%d tools, %s, %d cases%s)\n\n", mdText(r.Validator), v.Word(), v.Checked,
		mdText(v.SkippedText()), r.Cases, s.seedText())
	fmt.Fprintf(w, "Profile %s%s; %s.\n\n", mdText(r.Profile), s.closedText(), s.countsLine(mdText))
	s.classTable().WriteMarkdown(w)
	if len(r.Findings) > 0 {
		fmt.Fprintln(w)
		writeMarkdownFindings(w, r)
	}
	writeBaselineMarkdown(w, r)
	writeTail(w, r, s, tailStyle{
		unclear: "\nUnclear answers (never a finding), samples:\n\n",
		skipped: "\nSkipped tools (%d):\n\n", item: "- ", class: mdText, sample: mdCode,
		skippedTool: mdText, stale: mdText, note: mdText, lead: "- ", apart: true,
	})
	return nil
}

// writeComparisonMarkdown writes the runs that stopped early, the comparison table in Markdown, the seed, then each
// validator's name and counts and its findings as a table in a collapsed section (whose summary holds no name: a
// line of HTML is not read as Markdown, so mdText could not make a name safe there).
func writeComparisonMarkdown(w io.Writer, cmp *Comparison) error {
	m := newComparisonModel(cmp)
	for _, line := range m.interrupted() {
		fmt.Fprintf(w, "**Interrupted**: %s\n\n", mdText(line))
	}
	m.table().WriteMarkdown(w)
	if s := m.seedText(mdText); s != "" {
		fmt.Fprintf(w, "\n%s\n", strings.ToUpper(s[:1])+s[1:]+".")
	}
	for _, r := range cmp.Reports {
		if len(r.Findings)+len(r.Skipped) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n**%s**: %d findings, %d skipped tools\n\n<details><summary>findings and skipped "+
			"tools</summary>\n\n",
			mdText(r.Validator), len(r.Findings), len(r.Skipped))
		if len(r.Findings) > 0 {
			writeMarkdownFindings(w, r)
		}
		if len(r.Skipped) > 0 {
			if len(r.Findings) > 0 {
				fmt.Fprintln(w)
			}
			for _, s := range r.Skipped {
				fmt.Fprintf(w, "- skipped %s\n", mdText(s.String()))
			}
		}
		fmt.Fprintf(w, "\n</details>\n")
	}
	return nil
}

// writeMarkdownFindings writes the findings of r as a table, one row each, with where each is
// in its tool file.
func writeMarkdownFindings(w io.Writer, r *Report) {
	fmt.Fprintf(w, "| tool | class | kind | args | path | at | blocking | id |\n|---|---|---|---|---|---|---|---|\n")
	for _, f := range r.Findings {
		args := mdCode(Truncate(string(f.Args), 120))
		if !f.Shrunk {
			args += " (not shrunk: as first drawn)"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", mdText(f.Tool), mdText(string(f.Class)),
			mdText(string(f.Kind)),
			args, mdText(f.Path), mdText(atText(r.At(f))), blockingWord(f), mdText(f.ID))
	}
}

// mdCode writes s as inline code in a table cell: as is when it is plain text, else quoted as a
// Go string (so control characters and newlines stay visible and on one line), in a code span
// long enough for any backticks inside.
func mdCode(s string) string {
	q := s
	if !plainArgs(s) {
		q = strconv.Quote(s)
	}
	q = strings.ReplaceAll(q, "|", `\|`)
	fence := "`"
	for strings.Contains(q, fence) {
		fence += "`"
	}
	return fence + " " + q + " " + fence
}
