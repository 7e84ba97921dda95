package report

import (
	"fmt"
	"strconv"
	"strings"
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

// totalRow is a row under the classes: a total by outcome; fault rows count cases with no verdict.
type totalRow struct {
	name  string
	get   func(Cell) int
	fault bool
}

// totalRows are the rows under the classes: totals by outcome. A fault row (crash, timeout,
// protocol_error, gate_error: named as the findings name them) is shown only when some
// validator has such cases.
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

// seedText is "seed N" when every report has the same seed, else each validator's, its name made
// safe by esc.
func (m *comparisonModel) seedText(esc func(string) string) string {
	seeds := map[uint64]bool{}
	var each []string
	for _, r := range m.reports {
		seeds[r.Seed] = true
		each = append(each, fmt.Sprintf("%s %d", esc(r.Validator), r.Seed))
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

// interrupted is, for each report whose run stopped early, "validator NAME: WHY", the mark a
// run's own report carries in its headline.
func (m *comparisonModel) interrupted() []string {
	var out []string
	for _, r := range m.reports {
		if r.Interrupted != "" {
			out = append(out, fmt.Sprintf("validator %s: %s", r.Validator, r.Interrupted))
		}
	}
	return out
}

// comparisonModel is the model every renderer shows of a comparison: each report's summary and
// the classes of any of them, computed once.
type comparisonModel struct {
	reports []*summary
	classes []string // the classes of every report, in each one's order, first seen first
}

func newComparisonModel(cmp *Comparison) *comparisonModel {
	m := &comparisonModel{}
	seen := map[string]bool{}
	for _, r := range cmp.Reports {
		s := summarize(r)
		m.reports = append(m.reports, s)
		for _, c := range s.classes {
			if !seen[c] {
				seen[c] = true
				m.classes = append(m.classes, c)
			}
		}
	}
	return m
}

// totals adds up the cells of every class of r.
func totals(r *Report) Cell {
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

// table is the comparison table: one row per class, one column per validator, then the totals
// by outcome, the counts of findings, failed checks and skipped tools, and each verdict (PASS,
// FAIL, INTERRUPTED, UNCHECKED).
func (m *comparisonModel) table() *Table {
	t := &Table{Head: []string{"class"}}
	for _, s := range m.reports {
		t.Head = append(t.Head, s.Validator)
	}
	for _, c := range m.classes {
		cells := []string{c}
		for _, s := range m.reports {
			if st := s.Classes[c]; st != nil {
				cells = append(cells, cell(st).text())
			} else {
				cells = append(cells, "-")
			}
		}
		t.Rows = append(t.Rows, Row{Cells: cells})
	}
	for _, tr := range totalRows {
		cells := []string{tr.name}
		show := !tr.fault
		for _, s := range m.reports {
			n := tr.get(totals(s.Report))
			show = show || n > 0
			cells = append(cells, strconv.Itoa(n))
		}
		if show {
			t.Rows = append(t.Rows, Row{Cells: cells, Strong: true})
		}
	}
	for _, cr := range []struct {
		name string
		get  func(s *summary) string
	}{
		{"findings", func(s *summary) string { return strconv.Itoa(len(s.Findings)) }},
		{"failed checks", func(s *summary) string { return fmt.Sprintf("%d/%d", s.failed, s.total) }},
		{"skipped tools", func(s *summary) string { return strconv.Itoa(len(s.Skipped)) }},
		{"verdict", func(s *summary) string { return s.outcome.Status }},
	} {
		cells := []string{cr.name}
		for _, s := range m.reports {
			cells = append(cells, cr.get(s))
		}
		t.Rows = append(t.Rows, Row{Cells: cells, Strong: true})
	}
	return t
}
