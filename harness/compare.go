package harness

import (
	"encoding/json"
	"fmt"
	"io"
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
	Crashes     int `json:"crashes"` // crash, timeout and protocol_error
	Leaks       int `json:"leaks"`
}

// cell summarises one class of one report.
func cell(st *ClassStats) Cell {
	c := Cell{Cases: st.Cases, Missed: st.ByKind[Missed], FalseReject: st.ByKind[FalseReject],
		WrongRepair: st.ByKind[WrongRepair], Silent: st.ByKind[SilentChange], Leaks: st.ByKind[Leak],
		Crashes: st.ByKind[Crash] + st.ByKind[Timeout] + st.ByKind[ProtocolError]}
	c.Caught = c.Cases - c.Missed - c.FalseReject - c.WrongRepair - c.Silent - c.Crashes
	return c
}

func (c Cell) text() string {
	if c.Cases == 0 {
		return "-"
	}
	s := fmt.Sprintf("%d/%d", c.Caught, c.Cases)
	var extra []string
	if c.Crashes > 0 {
		extra = append(extra, fmt.Sprintf("%d crash", c.Crashes))
	}
	if c.Silent > 0 {
		extra = append(extra, fmt.Sprintf("%d changed", c.Silent))
	}
	if c.WrongRepair > 0 {
		extra = append(extra, fmt.Sprintf("%d bad repair", c.WrongRepair))
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
		t.Leaks += c.Leaks
	}
	return t
}

// WriteText writes a table: one row per class, one column per validator, "caught/cases" in each
// cell (for "valid": accepted unchanged/cases), then the totals by outcome.
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
	for _, row := range []struct {
		name string
		get  func(Cell) int
	}{
		{"missed", func(c Cell) int { return c.Missed }},
		{"false rejects", func(c Cell) int { return c.FalseReject }},
		{"wrong repairs", func(c Cell) int { return c.WrongRepair }},
		{"silent changes", func(c Cell) int { return c.Silent }},
		{"crashes/timeouts", func(c Cell) int { return c.Crashes }},
		{"leaks", func(c Cell) int { return c.Leaks }},
	} {
		fmt.Fprintf(tw, "%s\t", row.name)
		for _, r := range cmp.Reports {
			fmt.Fprintf(tw, "%d\t", row.get(cmp.totals(r)))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "skipped tools\t")
	for _, r := range cmp.Reports {
		fmt.Fprintf(tw, "%d\t", len(r.Skipped))
	}
	fmt.Fprintln(tw)
	return tw.Flush()
}

// WriteMarkdown writes the same table in Markdown.
func (cmp *Comparison) WriteMarkdown(w io.Writer) error {
	fmt.Fprint(w, "| class |")
	for _, r := range cmp.Reports {
		fmt.Fprintf(w, " %s |", r.Validator)
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
	for _, row := range []struct {
		name string
		get  func(Cell) int
	}{
		{"**missed**", func(c Cell) int { return c.Missed }},
		{"**false rejects**", func(c Cell) int { return c.FalseReject }},
		{"**wrong repairs**", func(c Cell) int { return c.WrongRepair }},
		{"**silent changes**", func(c Cell) int { return c.Silent }},
		{"**crashes/timeouts**", func(c Cell) int { return c.Crashes }},
		{"**leaks**", func(c Cell) int { return c.Leaks }},
	} {
		fmt.Fprintf(w, "| %s |", row.name)
		for _, r := range cmp.Reports {
			fmt.Fprintf(w, " %d |", row.get(cmp.totals(r)))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "| **skipped tools** |")
	for _, r := range cmp.Reports {
		fmt.Fprintf(w, " %d |", len(r.Skipped))
	}
	fmt.Fprintln(w)
	return nil
}

// WriteJSON writes the matrix (validator -> class -> cell) and the full reports.
func (cmp *Comparison) WriteJSON(w io.Writer) error {
	matrix := map[string]map[string]Cell{}
	for _, r := range cmp.Reports {
		row := map[string]Cell{}
		for c, st := range r.Classes {
			row[c] = cell(st)
		}
		matrix[r.Validator] = row
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Passed  bool                       `json:"passed"`
		Matrix  map[string]map[string]Cell `json:"matrix"`
		Reports []*Report                  `json:"reports"`
	}{cmp.passed(), matrix, cmp.Reports})
}

func (cmp *Comparison) passed() bool {
	for _, r := range cmp.Reports {
		if !r.Passed {
			return false
		}
	}
	return true
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
		var suites []junitSuite
		for _, r := range cmp.Reports {
			suites = append(suites, r.junitSuites(true)...)
		}
		return writeJUnit(w, suites)
	}
	return fmt.Errorf("unknown format %q (want text, json, junit or markdown)", format)
}
