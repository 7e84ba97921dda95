package report

import (
	"fmt"
	"sort"
)

// Report is the result of a run: counts per class, a finding for every tool, class, kind and
// schema place (Finding.Group), and the tools that were skipped with their reasons.
type Report struct {
	Passed    bool   `json:"passed"`
	Validator string `json:"validator"`
	// Profile is the verdict rules the run judged by (harness.Profile: strict, repair).
	Profile       string                 `json:"profile"`
	Closed        bool                   `json:"closed"`
	Tools         int                    `json:"tools"`
	Cases         int                    `json:"cases"`
	Classes       map[string]*ClassStats `json:"classes"`
	Findings      []Finding              `json:"findings"`
	Skipped       []Skipped              `json:"skipped"`
	GeneratorBugs int64                  `json:"generator_bugs"` // values the oracle rejected (never used)
	Unreachable   int64                  `json:"unreachable"`    // draws that found no valid value
	Stale         []string               `json:"stale,omitempty"`
	Notes         []string               `json:"notes,omitempty"`
	Seed          uint64                 `json:"seed,omitempty"`
	// Interrupted says why the run stopped before every tool was checked (a signal, a time
	// budget) and how far it got; "" for a run that finished. An interrupted run does not pass.
	Interrupted string `json:"interrupted,omitempty"`
	// Shard is set in the report of one shard of a run (Options.Shards): which shard, and what
	// Merge needs to put the shards together into the report of the whole run.
	Shard *ShardInfo `json:"shard,omitempty"`
	// Sources says where each tool with a finding is defined, for the SARIF report's locations.
	Sources map[string]Source `json:"sources,omitempty"`
	// Baseline is what a baseline of known findings made of the run (package baseline).
	Baseline *BaselineResult `json:"baseline,omitempty"`
	// Checked names, per class, the tools that had at least one case in it. A tool in a class is
	// one check: the unit of the "checks" line of the text and Markdown reports and of the JUnit
	// test cases, failed when it has a blocking finding. Not in the JSON (the classes and the
	// findings are).
	Checked map[string][]string `json:"-"`
	// ClassOrder is the order the reports list the classes in (the harness's: valid, then the
	// distortion classes in the mutators' order); a class not in it follows those that are,
	// sorted. Not in the JSON: whoever reads a report back gives it the order.
	ClassOrder []string `json:"-"`
}

// Finish puts what a run gathered in report order (findings, stale cases, notes, the tools
// checked), counts the cases and decides Passed (Recount). The report of a shard takes from it
// what Merge needs.
func (r *Report) Finish() {
	sortFindings(r.Findings)
	sort.Strings(r.Stale)
	sort.Strings(r.Notes)
	for _, tools := range r.Checked {
		sort.Strings(tools)
	}
	r.Cases = 0
	for _, st := range r.Classes {
		r.Cases += st.Cases
	}
	r.Recount()
	r.Shard.finish(r)
}

// Recount decides Passed: at least one tool checked (a shard may check none: Merge judges the
// whole run), no finding that fails the run (blocking and not known to a baseline), no fixed
// baseline entry, no generator bug, and a run that went to its end (not Interrupted). A
// baseline calls it after marking findings known.
func (r *Report) Recount() {
	r.Passed = r.GeneratorBugs == 0 && r.Interrupted == "" && (r.Tools > 0 || r.Shard != nil)
	for _, f := range r.Findings {
		if f.Fails() {
			r.Passed = false
		}
	}
	if r.Baseline != nil && len(r.Baseline.Fixed) > 0 {
		r.Passed = false
	}
}

// summary is the model every renderer shows of a report: the report and what is derived from
// it, computed once.
type summary struct {
	*Report
	classes       []string // the classes present: "valid", then the mutator classes in order, then the rest
	kinds         []Kind   // the kinds counted in some class, in report order
	either        bool     // a class counted implementation-defined cases (the column shows only then)
	unclear       bool     // a class counted unclear answers (the column shows only then)
	outcome       Outcome
	checks        []classChecks
	total, failed int // checks, and checks with a blocking finding
	blocking      int // blocking findings
}

func summarize(r *Report) *summary {
	s := &summary{Report: r, classes: r.classOrder(), outcome: r.Outcome()}
	for _, k := range Kinds() {
		for _, st := range r.Classes {
			if st.ByKind[k] > 0 {
				s.kinds = append(s.kinds, k)
				break
			}
		}
	}
	for _, st := range r.Classes {
		s.either = s.either || st.Either > 0
		s.unclear = s.unclear || st.Unclear > 0
	}
	s.checks = checksOf(r, s.classes)
	for _, cc := range s.checks {
		for _, tc := range cc.tools {
			s.total++
			if tc.failed() {
				s.failed++
			}
		}
	}
	for _, f := range r.Findings {
		if f.Blocking {
			s.blocking++
		}
	}
	return s
}

// classOrder is the classes present in r: those of ClassOrder in its order, then the rest,
// sorted.
func (r *Report) classOrder() []string {
	var present []string
	seen := map[string]bool{}
	for _, c := range r.ClassOrder {
		if r.Classes[c] != nil && !seen[c] {
			seen[c] = true
			present = append(present, c)
		}
	}
	var rest []string
	for c, st := range r.Classes {
		if !seen[c] && st != nil {
			rest = append(rest, c)
		}
	}
	sort.Strings(rest)
	return append(present, rest...)
}

func eitherText(st *ClassStats) string {
	if st.Either == 0 {
		return "-"
	}
	return fmt.Sprintf("%d either (%d accepted)", st.Either, st.EitherAccepted)
}

// toolCheck is one tool in one class: the findings it has there.
type toolCheck struct {
	tool     string
	findings []Finding
}

func (c toolCheck) failed() bool {
	for _, f := range c.findings {
		if f.Fails() {
			return true
		}
	}
	return false
}

// classChecks is the checks of one class, by tool name.
type classChecks struct {
	class string
	tools []toolCheck
}

// checksOf lists every check (a tool in a class: Checked, and any tool with a finding there),
// in class order (order, then the classes only findings name) and then by tool name.
func checksOf(r *Report, order []string) []classChecks {
	byClass := map[string]map[string]*toolCheck{}
	at := func(class, t string) *toolCheck {
		m := byClass[class]
		if m == nil {
			m = map[string]*toolCheck{}
			byClass[class] = m
		}
		if m[t] == nil {
			m[t] = &toolCheck{tool: t}
		}
		return m[t]
	}
	for c, tools := range r.Checked {
		for _, t := range tools {
			at(c, t)
		}
	}
	for _, f := range r.Findings {
		tc := at(string(f.Class), f.Tool)
		tc.findings = append(tc.findings, f)
	}
	known := len(order)
	order = append([]string(nil), order...)
	for c := range byClass {
		if r.Classes[c] == nil {
			order = append(order, c)
		}
	}
	sort.Strings(order[known:])
	var out []classChecks
	for _, c := range order {
		m := byClass[c]
		if len(m) == 0 {
			continue
		}
		cc := classChecks{class: c}
		for _, tc := range m {
			cc.tools = append(cc.tools, *tc)
		}
		sort.Slice(cc.tools, func(i, j int) bool { return cc.tools[i].tool < cc.tools[j].tool })
		out = append(out, cc)
	}
	return out
}

// countsLine is the line shared by the text and Markdown reports: checks, findings, skipped
// tools, the counts JUnit carries too, and why the run was interrupted, made safe by esc.
func (s *summary) countsLine(esc func(string) string) string {
	line := fmt.Sprintf("checks (a tool in a class): %d, %d failed; findings: %d", s.total, s.failed, len(s.Findings))
	if nb := len(s.Findings) - s.blocking; nb > 0 {
		line += fmt.Sprintf(" (%d not blocking)", nb)
	}
	if b := s.Baseline; b != nil {
		line += fmt.Sprintf("; baseline: %d known, %d fixed", len(b.Known), len(b.Fixed))
	}
	line += fmt.Sprintf("; skipped tools: %d", len(s.Skipped))
	if s.Interrupted != "" {
		line += "; interrupted: " + esc(s.Interrupted)
	}
	return line
}

func (s *summary) seedText() string {
	if s.Seed == 0 {
		return ""
	}
	return fmt.Sprintf(", seed %d", s.Seed)
}

func (s *summary) closedText() string {
	if s.Closed {
		return ", closed objects"
	}
	return ""
}

// legend is the line under the text table that says what its n/a column, and its either column
// when it has one, count.
func (s *summary) legend() string {
	l := "n/a: draws the class had nothing to distort in, or cases not sent"
	if s.either {
		l += "; either: verdict left to the gate by JSON, never a finding (k accepted)"
	}
	return l
}

// classTable is the table of classes by outcome: cases, ok, failed, not applicable, the count
// of each kind seen, and the implementation-defined and unclear counts when there are any.
func (s *summary) classTable() *Table {
	t := &Table{Right: true, Head: []string{"class", "cases", "ok", "failed", "n/a"}}
	for _, k := range s.kinds {
		t.Head = append(t.Head, string(k))
	}
	if s.either {
		t.Head = append(t.Head, "either")
	}
	if s.unclear {
		t.Head = append(t.Head, "unclear")
	}
	for _, c := range s.classes {
		st := s.Classes[c]
		cells := []string{c, itoa(st.Cases), itoa(st.Cases - st.Failed), itoa(st.Failed), itoa(st.NotApplicable)}
		for _, k := range s.kinds {
			cells = append(cells, itoa(st.ByKind[k]))
		}
		if s.either {
			cells = append(cells, eitherText(st))
		}
		if s.unclear {
			cells = append(cells, itoa(st.Unclear))
		}
		t.Rows = append(t.Rows, Row{Cells: cells})
	}
	return t
}
