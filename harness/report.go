package harness

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
)

// Report is the result of a run: counts per class, the minimal finding of every tool, class and
// kind, and the tools that were skipped with their reasons.
type Report struct {
	Passed        bool                   `json:"passed"`
	Validator     string                 `json:"validator"`
	Profile       Profile                `json:"profile"`
	Closed        bool                   `json:"closed"`
	Tools         int                    `json:"tools"`
	Cases         int                    `json:"cases"`
	Classes       map[string]*ClassStats `json:"classes"`
	Findings      []Finding              `json:"findings"`
	Skipped       []tool.Skipped         `json:"skipped"`
	GeneratorBugs int64                  `json:"generator_bugs"` // values the oracle rejected (never used)
	Unreachable   int64                  `json:"unreachable"`    // draws that found no valid value
	Stale         []string               `json:"stale,omitempty"`
	Notes         []string               `json:"notes,omitempty"`
	Seed          uint64                 `json:"seed,omitempty"`
}

func newReport(name string, opts Options) *Report {
	return &Report{Validator: name, Profile: opts.profile(), Closed: opts.Close, Classes: map[string]*ClassStats{},
		Findings: []Finding{}, Skipped: []tool.Skipped{}}
}

func (r *Report) add(tr *toolResult) {
	for c, st := range tr.classes {
		statsFor(r.Classes, c).merge(st)
	}
	r.Findings = append(r.Findings, tr.findings...)
	r.GeneratorBugs += tr.bugs
	if tr.bugs > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s: generator bug, the oracle rejected %d generated values; last: %s", tr.tool, tr.bugs, tr.bugText))
	}
	r.Unreachable += tr.unreach
	r.Stale = append(r.Stale, tr.stale...)
	for _, n := range tr.notes {
		r.Notes = append(r.Notes, tr.tool+": "+n)
	}
}

func (r *Report) finish() {
	sortFindings(r.Findings)
	sort.Strings(r.Stale)
	sort.Strings(r.Notes)
	r.Cases = 0
	for _, st := range r.Classes {
		r.Cases += st.Cases
	}
	r.Passed = r.GeneratorBugs == 0
	for _, f := range r.Findings {
		if f.Blocking {
			r.Passed = false
		}
	}
}

// classOrder is "valid", then the mutator classes in their order, then anything else.
func (r *Report) classOrder() []string {
	out := []string{"valid"}
	seen := map[string]bool{"valid": true}
	for _, c := range mutators.Classes() {
		out = append(out, string(c))
		seen[string(c)] = true
	}
	var rest []string
	for c := range r.Classes {
		if !seen[c] {
			rest = append(rest, c)
		}
	}
	sort.Strings(rest)
	var present []string
	for _, c := range append(out, rest...) {
		if r.Classes[c] != nil {
			present = append(present, c)
		}
	}
	return present
}

// kindsSeen lists the kinds with a non-zero count, in report order.
func (r *Report) kindsSeen() []Kind {
	var out []Kind
	for _, k := range Kinds() {
		for _, st := range r.Classes {
			if st.ByKind[k] > 0 {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// WriteText writes the aligned table of classes by outcome, then the minimal findings, then the
// skipped tools.
func (r *Report) WriteText(w io.Writer) error {
	status := "PASS"
	if !r.Passed {
		status = "FAIL"
	}
	fmt.Fprintf(w, "%s  validator %s, profile %s%s: %d tools, %d cases, %d findings\n\n", status, r.Validator,
		r.Profile, map[bool]string{true: ", closed objects", false: ""}[r.Closed], r.Tools, r.Cases, len(r.Findings))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	kinds := r.kindsSeen()
	fmt.Fprint(tw, "class\tcases\tok\tfailed\tn/a\t")
	for _, k := range kinds {
		fmt.Fprintf(tw, "%s\t", k)
	}
	fmt.Fprintln(tw)
	for _, c := range r.classOrder() {
		st := r.Classes[c]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t", c, st.Cases, st.Cases-st.Failed, st.Failed, st.NotApplicable)
		for _, k := range kinds {
			fmt.Fprintf(tw, "%d\t", st.ByKind[k])
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(w, "\nfindings (one minimal case per tool, class and kind):\n")
		for _, f := range r.Findings {
			mark := "FAIL"
			if !f.Blocking {
				mark = "note"
			}
			fmt.Fprintf(w, "\n%s %s\n", mark, f.String())
			fmt.Fprintf(w, "     args:   %s\n", quoteArgs(f.Args))
			if f.Path != "" {
				fmt.Fprintf(w, "     path:   %s  keyword: %s\n", f.Path, f.Keyword)
			}
			if len(f.Issues) > 0 {
				fmt.Fprintf(w, "     issues: %s\n", issuesText(f.Issues))
			}
			if f.Detail != "" {
				fmt.Fprintf(w, "     %s\n", strings.ReplaceAll(f.Detail, "\n", "\n     "))
			}
			fmt.Fprintf(w, "     id:     %s (%d such cases in the last pass)\n", f.ID, f.Count)
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "\nskipped tools (%d):\n", len(r.Skipped))
		for _, s := range r.Skipped {
			fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(s.String(), "\n", "\n    "))
		}
	}
	for _, s := range r.Stale {
		fmt.Fprintf(w, "stale saved case: %s\n", s)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

func quoteArgs(s string) string {
	const max = 400
	q := fmt.Sprintf("%q", s)
	if len(q) > max {
		q = q[:max] + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return q
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteMarkdown writes the class table and the findings as Markdown.
func (r *Report) WriteMarkdown(w io.Writer) error {
	status := "passed"
	if !r.Passed {
		status = "failed"
	}
	fmt.Fprintf(w, "### toolproof: %s %s (%d tools, %d cases)\n\n", r.Validator, status, r.Tools, r.Cases)
	kinds := r.kindsSeen()
	fmt.Fprint(w, "| class | cases | ok | failed | n/a |")
	for _, k := range kinds {
		fmt.Fprintf(w, " %s |", k)
	}
	fmt.Fprint(w, "\n|---|---:|---:|---:|---:|")
	for range kinds {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, c := range r.classOrder() {
		st := r.Classes[c]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d |", c, st.Cases, st.Cases-st.Failed, st.Failed, st.NotApplicable)
		for _, k := range kinds {
			fmt.Fprintf(w, " %d |", st.ByKind[k])
		}
		fmt.Fprintln(w)
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(w, "\n| tool | class | kind | args |\n|---|---|---|---|\n")
		for _, f := range r.Findings {
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", mdCell(f.Tool), f.Class, f.Kind, mdCode(truncate(f.Args, 120)))
		}
	}
	return nil
}

// truncate cuts s to at most n runes.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// mdCell makes text safe in a Markdown table cell: one line, no column breaks.
func mdCell(s string) string {
	s = strings.NewReplacer("\r", `\r`, "\n", `\n`, "|", `\|`).Replace(s)
	return s
}

// mdCode writes s as inline code in a table cell: quoted as a Go string (so control
// characters and newlines stay visible and on one line), in a code span long enough for any
// backticks inside.
func mdCode(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, "|", `\|`)
	fence := "`"
	for strings.Contains(q, fence) {
		fence += "`"
	}
	return fence + " " + q + " " + fence
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	Classname string         `xml:"classname,attr"`
	Failures  []junitFailure `xml:"failure"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

// junitSuites builds one test suite per class (named toolproof/CLASS, or toolproof/VALIDATOR/CLASS
// with withValidator), one test case per tool with findings in that class, failed when they block.
func (r *Report) junitSuites(withValidator bool) []junitSuite {
	byClass := map[string]map[string][]Finding{}
	for _, f := range r.Findings {
		if byClass[f.Class] == nil {
			byClass[f.Class] = map[string][]Finding{}
		}
		byClass[f.Class][f.Tool] = append(byClass[f.Class][f.Tool], f)
	}
	var suites []junitSuite
	for _, c := range r.classOrder() {
		name := "toolproof/" + c
		if withValidator {
			name = "toolproof/" + r.Validator + "/" + c
		}
		s := junitSuite{Name: name, Tests: r.Classes[c].Cases}
		tools := make([]string, 0, len(byClass[c]))
		for t := range byClass[c] {
			tools = append(tools, t)
		}
		sort.Strings(tools)
		for _, t := range tools {
			tc := junitCase{Name: t, Classname: c}
			for _, f := range byClass[c][t] {
				if f.Blocking {
					tc.Failures = append(tc.Failures, junitFailure{Message: f.String(), Text: fmt.Sprintf("args: %s\n%s", f.Args, f.Detail)})
				}
			}
			s.Failures += len(tc.Failures)
			s.Cases = append(s.Cases, tc)
		}
		suites = append(suites, s)
	}
	return suites
}

func writeJUnit(w io.Writer, suites []junitSuite) error {
	fmt.Fprint(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(struct {
		XMLName xml.Name     `xml:"testsuites"`
		Suites  []junitSuite `xml:"testsuite"`
	}{Suites: suites}); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// WriteJUnit writes JUnit XML: one test suite per class, one test case per tool with findings
// in it, failed when a finding blocks.
func (r *Report) WriteJUnit(w io.Writer) error { return writeJUnit(w, r.junitSuites(false)) }

// Write writes the report in a format: text, json, junit or markdown.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "", "text":
		return r.WriteText(w)
	case "json":
		return r.WriteJSON(w)
	case "junit":
		return r.WriteJUnit(w)
	case "markdown", "md":
		return r.WriteMarkdown(w)
	}
	return fmt.Errorf("unknown format %q (want text, json, junit or markdown)", format)
}
