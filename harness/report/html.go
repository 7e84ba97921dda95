package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
)

// HTMLOptions is what an HTML report shows beyond the reports: how to repeat the run and a case.
type HTMLOptions struct {
	// Command is the command line that repeats the run ("" leaves it out).
	Command string
	// Replay gives the command that replays one finding of a report ("" leaves it out); nil
	// gives "toolproof replay report.json --id ID", the JSON report of the same run.
	Replay func(r *Report, f Finding) string
}

func (o HTMLOptions) replay(r *Report, f Finding) string {
	if o.Replay != nil {
		return o.Replay(r, f)
	}
	return fmt.Sprintf("toolproof replay report.json --id %s --validator %s", f.ID, shellWord(r.Validator))
}

//go:embed html/report.html.tmpl
var htmlTemplateText string

var htmlTemplate = template.Must(template.New("report").Parse(htmlTemplateText))

// htmlPage is what the template renders: one validator, or several with their heatmap.
type htmlPage struct {
	Title      string
	Heading    string
	Status     string // the verdict's (Outcome.Status): PASS, FAIL, INTERRUPTED, UNCHECKED
	Command    string
	Seed       string
	Classes    []string
	Kinds      []string
	Heatmap    *htmlHeatmap
	Validators []htmlValidator
}

// htmlHeatmap is the validators × classes table of a comparison.
type htmlHeatmap struct {
	Classes []string
	Rows    []htmlHeatRow
}

type htmlHeatRow struct {
	Validator string
	Anchor    string
	Status    string
	Cells     []htmlHeatCell
}

type htmlHeatCell struct {
	Text, Title, Href string
	Style             template.CSS // a background colour toolproof computes, never user text
}

// htmlValidator is one report: its headline, its class table, its tools × classes grid and its
// findings by cell.
type htmlValidator struct {
	Anchor                  string
	Name                    string
	Status                  string
	Verdict                 string // the verdict line: Outcome.String
	Profile                 string
	Closed                  bool
	Seed                    string
	Tools, Cases, Checks    int
	Failed, Findings, Known int
	Baseline                *BaselineResult
	BaselineFixed           []htmlFinding
	BaselineKnown           []htmlFinding
	ClassRows               []htmlClassRow
	GridClasses             []string
	Grid                    []htmlGridRow
	Cells                   []htmlCell
	Skipped                 []string
	Notes                   []string
}

type htmlClassRow struct {
	Class                        string
	Cases, OK, Failed, NA        int
	Either, EitherAccepted, Kind string
}

type htmlGridRow struct {
	Tool  string
	Cells []htmlGridCell
}

// htmlGridCell is a tool in a class: its outcome (pass, fail, note, known, none) and, with
// findings, the anchor of their section.
type htmlGridCell struct {
	Outcome, Title, Href, Class string
}

// htmlCell is the findings of one tool in one class.
type htmlCell struct {
	Anchor, Tool, Class, Kinds string
	Findings                   []htmlFinding
}

type htmlFinding struct {
	Anchor, Mark, Line, Class, Kind, Args, Path, Keyword, At, Detail, ID, Replay, Count, Unshrunk string
	Issues                                                                                        []string
}

// WriteHTML writes the report as one self-contained HTML page.
func (r *Report) WriteHTML(w io.Writer, opts HTMLOptions) error {
	v := r.htmlValidator("v0", opts)
	p := htmlPage{Title: fmt.Sprintf("toolproof: %s %s", r.Validator, v.Status),
		Heading: "toolproof: " + r.Validator, Status: v.Status,
		Command: opts.Command, Seed: v.Seed, Validators: []htmlValidator{v}}
	p.Classes, p.Kinds = filterValues([]*Report{r})
	return htmlTemplate.Execute(w, p)
}

// WriteHTML writes the comparison as one self-contained HTML page: the validators × classes
// heatmap, then each validator's report.
func (cmp *Comparison) WriteHTML(w io.Writer, opts HTMLOptions) error {
	var statuses []string
	for _, r := range cmp.Reports {
		statuses = append(statuses, r.Outcome().Status)
	}
	status := worst(statuses...)
	m := newComparisonModel(cmp)
	p := htmlPage{Title: fmt.Sprintf("toolproof: %d validators compared", len(cmp.Reports)),
		Heading: fmt.Sprintf("toolproof: %d validators compared", len(cmp.Reports)), Status: status,
		Command: opts.Command, Seed: m.seedText(func(s string) string { return s })}
	hm := &htmlHeatmap{Classes: m.classes}
	for i, r := range cmp.Reports {
		v := r.htmlValidator(fmt.Sprintf("v%d", i), opts)
		p.Validators = append(p.Validators, v)
		row := htmlHeatRow{Validator: r.Validator, Anchor: v.Anchor, Status: v.Status}
		for _, c := range hm.Classes {
			row.Cells = append(row.Cells, heatCell(r, c, v.Anchor))
		}
		hm.Rows = append(hm.Rows, row)
	}
	p.Heatmap = hm
	p.Classes, p.Kinds = filterValues(cmp.Reports)
	return htmlTemplate.Execute(w, p)
}

// heatCell is one validator's outcome on one class: caught/cases, coloured by the share caught
// (red to green), linking to the validator's findings in the class.
func heatCell(r *Report, class, anchor string) htmlHeatCell {
	st := r.Classes[class]
	if st == nil || st.Cases == 0 {
		return htmlHeatCell{Text: "-", Title: "no cases", Style: "background:#eee"}
	}
	c := cell(st)
	share := float64(c.Caught) / float64(c.Cases)
	// A class that holds is green; one that fails goes from red (nothing held) to orange (all
	// but a few), so that a single finding never looks like a pass.
	style := template.CSS("background:hsl(120,45%,82%)")
	held := "holds"
	if !r.holds(class) {
		style = template.CSS(fmt.Sprintf("background:hsl(%d,75%%,80%%)", int(40*share)))
		held = "fails"
	}
	hc := htmlHeatCell{Text: fmt.Sprintf("%d/%d", c.Caught, c.Cases),
		Title: fmt.Sprintf("%s, %s %s: %s", r.Validator, class, held, c.text()),
		Style: style}
	for _, f := range r.Findings {
		if string(f.Class) == class {
			hc.Href = "#" + anchor + "-class-" + class
			break
		}
	}
	return hc
}

// filterValues lists the classes and kinds that have findings, for the filter form.
func filterValues(rs []*Report) (classes, kinds []string) {
	cs, ks := map[string]bool{}, map[string]bool{}
	for _, r := range rs {
		for _, f := range r.Findings {
			cs[string(f.Class)], ks[string(f.Kind)] = true, true
		}
	}
	for c := range cs {
		classes = append(classes, c)
	}
	for k := range ks {
		kinds = append(kinds, k)
	}
	sort.Strings(classes)
	sort.Strings(kinds)
	return classes, kinds
}

// htmlValidator builds the view of one report.
func (r *Report) htmlValidator(anchor string, opts HTMLOptions) htmlValidator {
	verdict := r.Outcome()
	v := htmlValidator{Anchor: anchor, Name: r.Validator, Status: verdict.Status, Verdict: verdict.Line(),
		Profile: string(r.Profile), Closed: r.Closed,
		Tools: r.Tools, Cases: r.Cases, Findings: len(r.Findings), Baseline: r.Baseline,
		Notes: append(append([]string{}, r.Stale...), r.Notes...)}
	if r.Seed != 0 {
		v.Seed = fmt.Sprint(r.Seed)
	}
	s := summarize(r)
	v.Checks, v.Failed = s.total, s.failed
	for _, f := range r.Findings {
		if f.Known {
			v.Known++
		}
	}
	kinds := s.kinds
	for _, c := range s.classes {
		st := r.Classes[c]
		row := htmlClassRow{Class: c, Cases: st.Cases, OK: st.Cases - st.Failed,
			Failed: st.Failed, NA: st.NotApplicable}
		if st.Either > 0 {
			row.Either = eitherText(st)
		}
		var ks []string
		for _, k := range kinds {
			if n := st.ByKind[k]; n > 0 {
				ks = append(ks, fmt.Sprintf("%s %d", k, n))
			}
		}
		row.Kind = strings.Join(ks, ", ")
		v.ClassRows = append(v.ClassRows, row)
	}
	v.GridClasses, v.Grid, v.Cells = r.htmlGrid(s, anchor, opts)
	if b := r.Baseline; b != nil {
		for _, f := range b.Fixed {
			h := r.htmlFinding(anchor+"-fixed", f, opts)
			h.Mark = "FIXED"
			v.BaselineFixed = append(v.BaselineFixed, h)
		}
		for _, f := range b.Known {
			h := r.htmlFinding(anchor+"-known", f, opts)
			h.Mark = "known"
			v.BaselineKnown = append(v.BaselineKnown, h)
		}
	}
	for _, s := range r.Skipped {
		v.Skipped = append(v.Skipped, s.String())
	}
	return v
}

// htmlGrid is the tools × classes grid (a row per tool with a check) and the findings of each
// cell that has some.
func (r *Report) htmlGrid(s *summary, anchor string, opts HTMLOptions) ([]string, []htmlGridRow, []htmlCell) {
	checks := s.checks
	var classes []string
	byTool := map[string]map[string]toolCheck{}
	for _, cc := range checks {
		classes = append(classes, cc.class)
		for _, tc := range cc.tools {
			if byTool[tc.tool] == nil {
				byTool[tc.tool] = map[string]toolCheck{}
			}
			byTool[tc.tool][cc.class] = tc
		}
	}
	tools := make([]string, 0, len(byTool))
	for t := range byTool {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	var rows []htmlGridRow
	var cells []htmlCell
	classIDs := map[string]bool{}
	for ti, t := range tools {
		row := htmlGridRow{Tool: t}
		for _, c := range classes {
			tc, ok := byTool[t][c]
			gc := htmlGridCell{Outcome: "none", Title: t + ", " + c + ": not checked", Class: c}
			if ok {
				gc.Outcome, gc.Title = cellOutcome(tc), t+", "+c+": "+cellOutcome(tc)
			}
			if ok && len(tc.findings) > 0 {
				hc := htmlCell{Anchor: fmt.Sprintf("%s-t%d-%s", anchor, ti, c), Tool: t, Class: c}
				if !classIDs[c] {
					classIDs[c] = true
					hc.Anchor = anchor + "-class-" + c // the first cell of a class is the heatmap's target
				}
				var ks []string
				for _, f := range tc.findings {
					hc.Findings = append(hc.Findings, r.htmlFinding(hc.Anchor, f, opts))
					ks = append(ks, string(f.Kind))
				}
				hc.Kinds = strings.Join(ks, " ")
				gc.Href = "#" + hc.Anchor
				cells = append(cells, hc)
			}
			row.Cells = append(row.Cells, gc)
		}
		rows = append(rows, row)
	}
	return classes, rows, cells
}

// cellOutcome is a check's colour: fail (a finding fails the run), known (blocking findings, all
// known to the baseline), note (findings that do not block), or pass.
func cellOutcome(tc toolCheck) string {
	out := "pass"
	for _, f := range tc.findings {
		switch {
		case f.Fails():
			return "fail"
		case f.Known:
			out = "known"
		case out == "pass":
			out = "note"
		}
	}
	return out
}

func (r *Report) htmlFinding(anchor string, f Finding, opts HTMLOptions) htmlFinding {
	mark := "FAIL"
	switch {
	case !f.Blocking:
		mark = "note"
	case f.Known:
		mark = "known"
	}
	h := htmlFinding{Anchor: anchor + "-" + f.ID + "-" + string(f.Kind), Mark: mark, Line: f.String(),
		Class: string(f.Class),
		Kind:  string(f.Kind), Args: showArgs(string(f.Args)), Path: f.Path, Keyword: f.Keyword, At: atText(r.At(f)),
		Detail: strings.TrimRight(f.Detail, "\n"), ID: f.ID, Replay: opts.replay(r, f), Count: suchCases(f.Count),
		Unshrunk: f.ShrinkNote()}
	if f.Path == "" && f.Class != "valid" {
		h.Path = "(the root)"
	}
	for _, is := range f.Issues {
		h.Issues = append(h.Issues, is.String())
	}
	return h
}

// shellWord quotes s for a POSIX shell when it holds anything but safe characters.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
