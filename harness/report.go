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
	"unicode"
	"unicode/utf8"

	"github.com/toolproof/toolproof/cases"
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
}

func newReport(name string, opts Options) *Report {
	return &Report{Validator: name, Profile: opts.profile(), Closed: opts.Close, Classes: map[string]*ClassStats{},
		Findings: []Finding{}, Skipped: []tool.Skipped{}, Checked: map[string][]string{}}
}

func (r *Report) add(tr *toolResult) {
	for c, st := range tr.classes {
		statsFor(r.Classes, cases.Class(c)).merge(st)
		if st.Cases > 0 {
			if r.Checked == nil {
				r.Checked = map[string][]string{}
			}
			r.Checked[c] = append(r.Checked[c], tr.tool)
		}
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
	for _, tools := range r.Checked {
		sort.Strings(tools)
	}
	r.Cases = 0
	for _, st := range r.Classes {
		r.Cases += st.Cases
	}
	r.Passed = r.GeneratorBugs == 0
	for _, f := range r.Findings {
		if f.Fails() {
			r.Passed = false
		}
	}
	if r.Baseline != nil && len(r.Baseline.Fixed) > 0 {
		r.Passed = false
	}
}

// Recount sets Passed again from the findings and the baseline (after a baseline marked findings
// known, or added fixed ones).
func (r *Report) Recount() { r.finish() }

// classOrder is "valid", then the mutator classes in their order, then anything else.
func (r *Report) classOrder() []string {
	out := []string{string(cases.Valid)}
	seen := map[string]bool{string(cases.Valid): true}
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

// hasEither and hasUnclear say whether a class counted implementation-defined or unclear cases
// (the columns are shown only then).
func (r *Report) hasEither() bool {
	for _, st := range r.Classes {
		if st.Either > 0 {
			return true
		}
	}
	return false
}

func (r *Report) hasUnclear() bool {
	for _, st := range r.Classes {
		if st.Unclear > 0 {
			return true
		}
	}
	return false
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

// checks lists every check (a tool in a class: Checked, and any tool with a finding there), in
// class order and then by tool name.
func (r *Report) checks() []classChecks {
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
	order := r.classOrder()
	for c := range byClass {
		if r.Classes[c] == nil {
			order = append(order, c)
		}
	}
	sort.Strings(order[len(r.classOrder()):])
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

// checkCounts is how many checks there are and how many failed.
func (r *Report) checkCounts() (total, failed int) {
	for _, cc := range r.checks() {
		for _, tc := range cc.tools {
			total++
			if tc.failed() {
				failed++
			}
		}
	}
	return total, failed
}

func (r *Report) blocking() int {
	n := 0
	for _, f := range r.Findings {
		if f.Blocking {
			n++
		}
	}
	return n
}

// countsLine is the line shared by the text and Markdown reports: checks, findings, skipped
// tools, the counts JUnit carries too.
func (r *Report) countsLine() string {
	total, failed := r.checkCounts()
	s := fmt.Sprintf("checks (a tool in a class): %d, %d failed; findings: %d", total, failed, len(r.Findings))
	if nb := len(r.Findings) - r.blocking(); nb > 0 {
		s += fmt.Sprintf(" (%d not blocking)", nb)
	}
	if b := r.Baseline; b != nil {
		s += fmt.Sprintf("; baseline: %d known, %d fixed", len(b.Known), len(b.Fixed))
	}
	return s + fmt.Sprintf("; skipped tools: %d", len(r.Skipped))
}

func (r *Report) statusWord() (string, string) {
	if r.Passed {
		return "PASS", "passed"
	}
	return "FAIL", "failed"
}

func (r *Report) seedText() string {
	if r.Seed == 0 {
		return ""
	}
	return fmt.Sprintf(", seed %d", r.Seed)
}

// WriteText writes the headline (status, validator, seed), the counts, the aligned table of
// classes by outcome, then every finding in full, then the unclear samples, the skipped tools and
// the notes.
func (r *Report) WriteText(w io.Writer) error {
	status, _ := r.statusWord()
	fmt.Fprintf(w, "%s  validator %s, profile %s%s%s: %d tools, %d cases, %d findings\n", status, r.Validator,
		r.Profile, map[bool]string{true: ", closed objects", false: ""}[r.Closed], r.seedText(), r.Tools, r.Cases, len(r.Findings))
	fmt.Fprintf(w, "%s\n\n", r.countsLine())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	kinds := r.kindsSeen()
	either, unclear := r.hasEither(), r.hasUnclear()
	fmt.Fprint(tw, "class\tcases\tok\tfailed\tn/a\t")
	for _, k := range kinds {
		fmt.Fprintf(tw, "%s\t", k)
	}
	if either {
		fmt.Fprint(tw, "either\t")
	}
	if unclear {
		fmt.Fprint(tw, "unclear\t")
	}
	fmt.Fprintln(tw)
	for _, c := range r.classOrder() {
		st := r.Classes[c]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t", c, st.Cases, st.Cases-st.Failed, st.Failed, st.NotApplicable)
		for _, k := range kinds {
			fmt.Fprintf(tw, "%d\t", st.ByKind[k])
		}
		if either {
			fmt.Fprintf(tw, "%s\t", eitherText(st))
		}
		if unclear {
			fmt.Fprintf(tw, "%d\t", st.Unclear)
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
			} else if f.Known {
				mark = "known"
			}
			fmt.Fprintf(w, "\n%s %s\n", mark, f.String())
			fmt.Fprintf(w, "     args:   %s\n", showArgs(string(f.Args)))
			if f.Path != "" {
				fmt.Fprintf(w, "     path:   %s  keyword: %s\n", f.Path, f.Keyword)
			}
			if len(f.Issues) > 0 {
				fmt.Fprintf(w, "     issues: %s\n", issuesText(f.Issues))
			}
			if f.Detail != "" {
				fmt.Fprintf(w, "     %s\n", strings.ReplaceAll(strings.TrimRight(f.Detail, "\n"), "\n", "\n     "))
			}
			fmt.Fprintf(w, "     id:     %s (%s in the last pass)\n", f.ID, suchCases(f.Count))
		}
	}
	r.writeBaselineText(w)
	if unclear {
		fmt.Fprintf(w, "\nunclear answers (neither a rejection nor a call gone through; never a finding), samples:\n")
		for _, c := range r.classOrder() {
			for _, s := range r.Classes[c].Samples {
				fmt.Fprintf(w, "  %s: %s\n", c, s)
			}
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

// plainArgs reports whether argument text can be shown as is: UTF-8, on one line, printable,
// with no space at either end.
func plainArgs(s string) bool {
	if s == "" || !utf8.ValidString(s) || strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}

// showArgs is argument text for a report: as is when it is plain, else Go-quoted (so control
// characters, line breaks and bytes that are not UTF-8 stay visible), cut at 400 characters.
func showArgs(s string) string {
	const max = 400
	q := s
	if !plainArgs(s) {
		q = strconv.Quote(s) + " (quoted)"
	}
	if len(q) > max {
		q = q[:max] + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return q
}

// Document is the one JSON shape of every run, with one validator or several: whether all
// passed, the seed, and the report of each validator.
type Document struct {
	Passed  bool      `json:"passed"`
	Seed    uint64    `json:"seed,omitempty"`
	Reports []*Report `json:"reports"`
}

// NewDocument puts reports in one Document; the seed is theirs (the first report's).
func NewDocument(reports ...*Report) Document {
	d := Document{Passed: true, Reports: reports}
	for _, r := range reports {
		d.Passed = d.Passed && r.Passed
		if d.Seed == 0 {
			d.Seed = r.Seed
		}
	}
	if d.Reports == nil {
		d.Reports = []*Report{}
	}
	return d
}

func writeDocument(w io.Writer, d Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// WriteJSON writes the report as a Document with this one report: {"passed", "seed",
// "reports": [...]}, the same shape as a comparison's.
func (r *Report) WriteJSON(w io.Writer) error { return writeDocument(w, NewDocument(r)) }

// WriteMarkdown writes the headline with the seed, the counts, the class table, the findings
// table, the unclear samples, the skipped tools and the notes as Markdown.
func (r *Report) WriteMarkdown(w io.Writer) error {
	_, status := r.statusWord()
	fmt.Fprintf(w, "### toolproof: %s %s (%d tools, %d cases%s)\n\n", r.Validator, status, r.Tools, r.Cases, r.seedText())
	fmt.Fprintf(w, "Profile %s%s; %s.\n\n", r.Profile, map[bool]string{true: ", closed objects", false: ""}[r.Closed], r.countsLine())
	kinds := r.kindsSeen()
	either, unclear := r.hasEither(), r.hasUnclear()
	fmt.Fprint(w, "| class | cases | ok | failed | n/a |")
	for _, k := range kinds {
		fmt.Fprintf(w, " %s |", k)
	}
	if either {
		fmt.Fprint(w, " either |")
	}
	if unclear {
		fmt.Fprint(w, " unclear |")
	}
	fmt.Fprint(w, "\n|---|---:|---:|---:|---:|")
	for range kinds {
		fmt.Fprint(w, "---:|")
	}
	if either {
		fmt.Fprint(w, "---:|")
	}
	if unclear {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, c := range r.classOrder() {
		st := r.Classes[c]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d |", c, st.Cases, st.Cases-st.Failed, st.Failed, st.NotApplicable)
		for _, k := range kinds {
			fmt.Fprintf(w, " %d |", st.ByKind[k])
		}
		if either {
			fmt.Fprintf(w, " %s |", eitherText(st))
		}
		if unclear {
			fmt.Fprintf(w, " %d |", st.Unclear)
		}
		fmt.Fprintln(w)
	}
	if len(r.Findings) > 0 {
		fmt.Fprintln(w)
		writeMarkdownFindings(w, r.Findings)
	}
	r.writeBaselineMarkdown(w)
	if unclear {
		fmt.Fprintf(w, "\nUnclear answers (never a finding), samples:\n\n")
		for _, c := range r.classOrder() {
			for _, s := range r.Classes[c].Samples {
				fmt.Fprintf(w, "- %s: %s\n", c, mdCode(s))
			}
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "\nSkipped tools (%d):\n\n", len(r.Skipped))
		for _, s := range r.Skipped {
			fmt.Fprintf(w, "- %s\n", mdCell(s.String()))
		}
	}
	if len(r.Stale)+len(r.Notes) > 0 {
		fmt.Fprintln(w)
		for _, s := range r.Stale {
			fmt.Fprintf(w, "- stale saved case: %s\n", mdCell(s))
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "- note: %s\n", mdCell(n))
		}
	}
	return nil
}

// writeMarkdownFindings writes the findings as a table, one row each.
func writeMarkdownFindings(w io.Writer, fs []Finding) {
	fmt.Fprintf(w, "| tool | class | kind | args | path | blocking | id |\n|---|---|---|---|---|---|---|\n")
	for _, f := range fs {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(f.Tool), f.Class, f.Kind, mdCode(truncate(string(f.Args), 120)),
			mdCell(f.Path), blockingWord(f), f.ID)
	}
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

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

// xmlSafe replaces what XML 1.0 cannot hold (control characters, lone surrogates, invalid
// UTF-8) with U+FFFD, for text written as CDATA.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF && r != utf8.RuneError,
			r >= 0xE000 && r <= 0xFFFD,
			r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

// junitFinding is the text of one finding in a JUnit failure or output.
func junitFinding(f Finding) string {
	s := fmt.Sprintf("%s\nargs: %s\n", f.String(), showArgs(string(f.Args)))
	if f.Path != "" {
		s += fmt.Sprintf("path: %s  keyword: %s\n", f.Path, f.Keyword)
	}
	if len(f.Issues) > 0 {
		s += "issues: " + issuesText(f.Issues) + "\n"
	}
	if f.Detail != "" {
		s += strings.TrimRight(f.Detail, "\n") + "\n"
	}
	return s + fmt.Sprintf("id: %s (%s in the last pass)\n", f.ID, suchCases(f.Count))
}

// suchCases counts the cases like a finding's: "1 such case", "4 such cases".
func suchCases(n int) string {
	if n == 1 {
		return "1 such case"
	}
	return fmt.Sprintf("%d such cases", n)
}

// junitSuites builds one test suite per class (named toolproof/CLASS, or toolproof/VALIDATOR/CLASS
// with withValidator) with one test case per check (a tool in the class), failed when it has a
// blocking finding, and a suite of the skipped tools. The counts are those of the text report's
// checks line.
func (r *Report) junitSuites(withValidator bool) []junitSuite {
	prefix := "toolproof/"
	if withValidator {
		prefix = "toolproof/" + r.Validator + "/"
	}
	props := []junitProperty{{"validator", r.Validator}, {"profile", string(r.Profile)}, {"closed", strconv.FormatBool(r.Closed)}}
	if r.Seed != 0 {
		props = append(props, junitProperty{"seed", strconv.FormatUint(r.Seed, 10)})
	}
	var suites []junitSuite
	for _, cc := range r.checks() {
		s := junitSuite{Name: prefix + cc.class, Properties: props}
		for _, tc := range cc.tools {
			jc := junitCase{Name: tc.tool, Classname: prefix + cc.class}
			var fail, note []string
			for _, f := range tc.findings {
				if f.Fails() {
					fail = append(fail, junitFinding(f))
				} else {
					note = append(note, junitFinding(f))
				}
			}
			if len(fail) > 0 {
				var first Finding
				for _, f := range tc.findings {
					if f.Fails() {
						first = f
						break
					}
				}
				msg := first.String()
				if len(fail) > 1 {
					msg += fmt.Sprintf(" (and %d more)", len(fail)-1)
				}
				jc.Failure = &junitFailure{Message: msg, Type: string(first.Kind), Text: xmlSafe(strings.Join(fail, "\n"))}
				s.Failures++
			}
			if len(note) > 0 {
				jc.SystemOut = &junitText{xmlSafe(strings.Join(note, "\n"))}
			}
			s.Tests++
			s.Cases = append(s.Cases, jc)
		}
		suites = append(suites, s)
	}
	if len(r.Skipped) > 0 {
		s := junitSuite{Name: prefix + "skipped", Properties: props}
		for _, sk := range r.Skipped {
			name := sk.Tool
			if name == "" {
				name = "(unnamed) " + sk.Source
			}
			s.Cases = append(s.Cases, junitCase{Name: name, Classname: prefix + "skipped",
				Skipped: &junitSkipped{Message: sk.String()}})
			s.Tests++
			s.Skipped++
		}
		suites = append(suites, s)
	}
	return suites
}

func writeJUnit(w io.Writer, suites []junitSuite) error {
	doc := struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}{Suites: suites}
	for _, s := range suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Skipped += s.Skipped
	}
	fmt.Fprint(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// WriteJUnit writes JUnit XML: one test suite per class, one test case per tool checked in it
// (failed when it has a blocking finding, whose text the failure holds), and a suite of the
// skipped tools; the validator, profile and seed are suite properties.
func (r *Report) WriteJUnit(w io.Writer) error { return writeJUnit(w, r.junitSuites(false)) }

// Write writes the report in a format: text, json, junit, markdown, html, sarif or badge (the
// last three with no RenderOptions; WriteFormat takes them).
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
	case "html", "sarif", "badge":
		return r.WriteFormat(w, format, RenderOptions{})
	}
	return fmt.Errorf("unknown format %q (want %s)", format, FormatList)
}
