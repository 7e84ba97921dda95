package harness

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Comparison puts the reports of several validators on the same tools side by side.
type Comparison struct {
	Reports []*Report `json:"reports"`
}

// Cell is one validator's outcome on one class.
type Cell struct {
	Cases       int `json:"cases"`
	Caught      int `json:"caught"` // must-reject cases rejected (or repaired exactly); valid cases accepted unchanged
	Missed      int `json:"missed"`
	FalseReject int `json:"false_reject"`
	WrongRepair int `json:"wrong_repair"`
	Silent      int `json:"silent_change"`
	// The cases with no verdict, each named by its kind as the findings name it.
	Crashes        int `json:"crashes"`                   // crash
	Timeouts       int `json:"timeouts,omitempty"`        // timeout
	ProtocolErrors int `json:"protocol_errors,omitempty"` // protocol_error: the adapter's own failure
	GateErrors     int `json:"gate_errors,omitempty"`     // gate_error: the gate threw on the input
	Leaks          int `json:"leaks"`
	Unclear        int `json:"unclear,omitempty"` // answers neither a rejection nor a call gone through
	// Either counts the implementation-defined cases (never failed), EitherAccepted of them accepted.
	Either         int `json:"either,omitempty"`
	EitherAccepted int `json:"either_accepted,omitempty"`
}

// cell summarises one class of one report.
func cell(st *ClassStats) Cell {
	c := Cell{Cases: st.Cases, Missed: st.ByKind[Missed], FalseReject: st.ByKind[FalseReject],
		WrongRepair: st.ByKind[WrongRepair], Silent: st.ByKind[SilentChange], Leaks: st.ByKind[Leak],
		Crashes: st.ByKind[Crash], Timeouts: st.ByKind[Timeout], ProtocolErrors: st.ByKind[ProtocolError],
		GateErrors: st.ByKind[GateError], Unclear: st.Unclear, Either: st.Either, EitherAccepted: st.EitherAccepted}
	c.Caught = c.Cases - c.Missed - c.FalseReject - c.WrongRepair - c.Silent - c.noVerdict() - c.Unclear
	return c
}

// noVerdict counts the cases with no verdict: crashes, timeouts, protocol and gate errors.
func (c Cell) noVerdict() int { return c.Crashes + c.Timeouts + c.ProtocolErrors + c.GateErrors }

func (c Cell) text() string {
	if c.Cases == 0 {
		return "-"
	}
	s := fmt.Sprintf("%d/%d", c.Caught, c.Cases)
	var extra []string
	for _, f := range []struct {
		n    int
		kind Kind
	}{{c.Crashes, Crash}, {c.Timeouts, Timeout}, {c.ProtocolErrors, ProtocolError}, {c.GateErrors, GateError}} {
		if f.n > 0 {
			extra = append(extra, fmt.Sprintf("%d %s", f.n, f.kind))
		}
	}
	if c.Silent > 0 {
		extra = append(extra, fmt.Sprintf("%d changed", c.Silent))
	}
	if c.WrongRepair > 0 {
		extra = append(extra, fmt.Sprintf("%d bad repair", c.WrongRepair))
	}
	if c.Unclear > 0 {
		extra = append(extra, fmt.Sprintf("%d unclear", c.Unclear))
	}
	if c.Either > 0 {
		extra = append(extra, fmt.Sprintf("%d either, %d accepted", c.Either, c.EitherAccepted))
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return s
}

func (cmp *Comparison) classes() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range cmp.Reports {
		for _, c := range r.classOrder() {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

func (cmp *Comparison) totals(r *Report) Cell {
	var t Cell
	for _, st := range r.Classes {
		c := cell(st)
		t.Cases += c.Cases
		t.Caught += c.Caught
		t.Missed += c.Missed
		t.FalseReject += c.FalseReject
		t.WrongRepair += c.WrongRepair
		t.Silent += c.Silent
		t.Crashes += c.Crashes
		t.Timeouts += c.Timeouts
		t.ProtocolErrors += c.ProtocolErrors
		t.GateErrors += c.GateErrors
		t.Leaks += c.Leaks
		t.Unclear += c.Unclear
		t.Either += c.Either
		t.EitherAccepted += c.EitherAccepted
	}
	return t
}

// totalRow is a row under the classes: a total by outcome; fault rows count cases with no verdict.
type totalRow struct {
	name  string
	get   func(Cell) int
	fault bool
}

// totalRows are the rows under the classes: totals by outcome.
var totalRows = []totalRow{
	{"missed", func(c Cell) int { return c.Missed }, false},
	{"false rejects", func(c Cell) int { return c.FalseReject }, false},
	{"wrong repairs", func(c Cell) int { return c.WrongRepair }, false},
	{"silent changes", func(c Cell) int { return c.Silent }, false},
	{string(Crash), func(c Cell) int { return c.Crashes }, true},
	{string(Timeout), func(c Cell) int { return c.Timeouts }, true},
	{string(ProtocolError), func(c Cell) int { return c.ProtocolErrors }, true},
	{string(GateError), func(c Cell) int { return c.GateErrors }, true},
	{"leaks", func(c Cell) int { return c.Leaks }, false},
	{"unclear", func(c Cell) int { return c.Unclear }, false},
}

// rows are the total rows shown: every outcome row, and a no-verdict row (crash, timeout,
// protocol_error, gate_error) only when some validator has such cases.
func (cmp *Comparison) rows() []totalRow {
	var out []totalRow
	for _, row := range totalRows {
		show := !row.fault
		for _, r := range cmp.Reports {
			show = show || row.get(cmp.totals(r)) > 0
		}
		if show {
			out = append(out, row)
		}
	}
	return out
}

// seedText is "seed N" when every report has the same seed, else each validator's.
func (cmp *Comparison) seedText() string {
	seeds := map[uint64]bool{}
	var each []string
	for _, r := range cmp.Reports {
		seeds[r.Seed] = true
		each = append(each, fmt.Sprintf("%s %d", r.Validator, r.Seed))
	}
	if len(seeds) == 1 {
		for s := range seeds {
			if s == 0 {
				return ""
			}
			return fmt.Sprintf("seed %d", s)
		}
	}
	return "seeds: " + strings.Join(each, ", ")
}

// WriteText writes a table: one row per class, one column per validator, "caught/cases" in each
// cell (for "valid": accepted unchanged/cases), then the totals by outcome, the seed, and every
// finding of every validator, one line each (the JSON form has them in full).
func (cmp *Comparison) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "class\t")
	for _, r := range cmp.Reports {
		fmt.Fprintf(tw, "%s\t", r.Validator)
	}
	fmt.Fprintln(tw)
	for _, c := range cmp.classes() {
		fmt.Fprintf(tw, "%s\t", c)
		for _, r := range cmp.Reports {
			if st := r.Classes[c]; st != nil {
				fmt.Fprintf(tw, "%s\t", cell(st).text())
			} else {
				fmt.Fprint(tw, "-\t")
			}
		}
		fmt.Fprintln(tw)
	}
	for _, row := range cmp.rows() {
		fmt.Fprintf(tw, "%s\t", row.name)
		for _, r := range cmp.Reports {
			fmt.Fprintf(tw, "%d\t", row.get(cmp.totals(r)))
		}
		fmt.Fprintln(tw)
	}
	for _, row := range []struct {
		name string
		get  func(r *Report) string
	}{
		{"findings", func(r *Report) string { return strconv.Itoa(len(r.Findings)) }},
		{"failed checks", func(r *Report) string { t, f := r.checkCounts(); return fmt.Sprintf("%d/%d", f, t) }},
		{"skipped tools", func(r *Report) string { return strconv.Itoa(len(r.Skipped)) }},
	} {
		fmt.Fprintf(tw, "%s\t", row.name)
		for _, r := range cmp.Reports {
			fmt.Fprintf(tw, "%s\t", row.get(r))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if s := cmp.seedText(); s != "" {
		fmt.Fprintf(w, "\n%s\n", s)
	}
	for _, r := range cmp.Reports {
		if len(r.Findings) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nfindings of %s (%d; in full: --format json, or a run of this validator alone):\n", r.Validator, len(r.Findings))
		for _, f := range r.Findings {
			mark := "FAIL"
			if !f.Blocking {
				mark = "note"
			}
			fmt.Fprintf(w, "  %s %s\n       args %s  id %s\n", mark, f.String(), showArgs(truncate(string(f.Args), 160)), f.ID)
		}
	}
	for _, r := range cmp.Reports {
		for _, s := range r.Skipped {
			fmt.Fprintf(w, "skipped by %s: %s\n", r.Validator, strings.ReplaceAll(s.String(), "\n", "\n    "))
		}
	}
	return nil
}

// WriteMarkdown writes the same table in Markdown, the seed, then each validator's findings
// as a table in a collapsed section.
func (cmp *Comparison) WriteMarkdown(w io.Writer) error {
	fmt.Fprint(w, "| class |")
	for _, r := range cmp.Reports {
		fmt.Fprintf(w, " %s |", mdCell(r.Validator))
	}
	fmt.Fprint(w, "\n|---|")
	for range cmp.Reports {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, c := range cmp.classes() {
		fmt.Fprintf(w, "| %s |", c)
		for _, r := range cmp.Reports {
			if st := r.Classes[c]; st != nil {
				fmt.Fprintf(w, " %s |", cell(st).text())
			} else {
				fmt.Fprint(w, " - |")
			}
		}
		fmt.Fprintln(w)
	}
	for _, row := range cmp.rows() {
		fmt.Fprintf(w, "| **%s** |", row.name)
		for _, r := range cmp.Reports {
			fmt.Fprintf(w, " %d |", row.get(cmp.totals(r)))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "| **findings** |")
	for _, r := range cmp.Reports {
		fmt.Fprintf(w, " %d |", len(r.Findings))
	}
	fmt.Fprint(w, "\n| **failed checks** |")
	for _, r := range cmp.Reports {
		t, f := r.checkCounts()
		fmt.Fprintf(w, " %d/%d |", f, t)
	}
	fmt.Fprint(w, "\n| **skipped tools** |")
	for _, r := range cmp.Reports {
		fmt.Fprintf(w, " %d |", len(r.Skipped))
	}
	fmt.Fprintln(w)
	if s := cmp.seedText(); s != "" {
		fmt.Fprintf(w, "\n%s\n", strings.ToUpper(s[:1])+s[1:]+".")
	}
	for _, r := range cmp.Reports {
		if len(r.Findings)+len(r.Skipped) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n<details><summary>%s: %d findings, %d skipped tools</summary>\n\n", mdCell(r.Validator), len(r.Findings), len(r.Skipped))
		if len(r.Findings) > 0 {
			writeMarkdownFindings(w, r.Findings)
		}
		if len(r.Skipped) > 0 {
			if len(r.Findings) > 0 {
				fmt.Fprintln(w)
			}
			for _, s := range r.Skipped {
				fmt.Fprintf(w, "- skipped %s\n", mdCell(s.String()))
			}
		}
		fmt.Fprintf(w, "\n</details>\n")
	}
	return nil
}

// WriteJSON writes the comparison as a Document: {"passed", "seed", "reports": [...]}, the
// shape of a single report's JSON.
func (cmp *Comparison) WriteJSON(w io.Writer) error {
	return writeDocument(w, NewDocument(cmp.Reports...))
}

// Write writes the comparison in a format: text, json, markdown, or junit (one document, the
// suites of every validator).
func (cmp *Comparison) Write(w io.Writer, format string) error {
	switch format {
	case "", "text":
		return cmp.WriteText(w)
	case "json":
		return cmp.WriteJSON(w)
	case "markdown", "md":
		return cmp.WriteMarkdown(w)
	case "junit":
		return cmp.WriteJUnit(w)
	}
	return fmt.Errorf("unknown format %q (want text, json, junit or markdown)", format)
}

// WriteJUnit writes one JUnit document with the suites of every validator (named
// toolproof/VALIDATOR/CLASS).
func (cmp *Comparison) WriteJUnit(w io.Writer) error {
	var suites []junitSuite
	for _, r := range cmp.Reports {
		suites = append(suites, r.junitSuites(true)...)
	}
	return writeJUnit(w, suites)
}
