package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

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

// junitFinding is the text of one finding in a JUnit failure or output; at is where it is in
// its tool file.
func junitFinding(f Finding, at Source) string {
	s := f.String() + "\n"
	if t := atText(at); t != "" {
		s += "at: " + t + "\n"
	}
	s += fmt.Sprintf("args: %s\n", showArgs(string(f.Args)))
	if note := f.ShrinkNote(); note != "" {
		s += note + "\n"
	}
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

// junitSuites builds one test suite per class (named toolproof/CLASS, or toolproof/VALIDATOR/CLASS
// with withValidator) with one test case per check (a tool in the class), failed when it has a
// blocking finding, and a suite of the skipped tools; every suite carries the verdict line as a
// property, and a run that checked nothing has a suite toolproof/verdict with one failed case
// saying so. The counts are those of the text report's checks line.
func junitSuites(sum *summary, withValidator bool) []junitSuite {
	r := sum.Report
	prefix := "toolproof/"
	if withValidator {
		prefix = "toolproof/" + r.Validator + "/"
	}
	props := []junitProperty{{"validator", r.Validator}, {"profile", string(r.Profile)},
		{"closed", strconv.FormatBool(r.Closed)},
		{"verdict", sum.outcome.String()}}
	if r.Seed != 0 {
		props = append(props, junitProperty{"seed", strconv.FormatUint(r.Seed, 10)})
	}
	var suites []junitSuite
	for _, cc := range sum.checks {
		s := junitSuite{Name: prefix + cc.class, Properties: props}
		for _, tc := range cc.tools {
			jc := junitToolCase(prefix+cc.class, tc, r)
			if jc.Failure != nil {
				s.Failures++
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
	if o := sum.outcome; o.Status == "INTERRUPTED" {
		name := prefix + "verdict"
		suites = append(suites, junitSuite{Name: name, Tests: 1, Failures: 1, Properties: props, Cases: []junitCase{{
			Name: "run completed", Classname: name,
			Failure: &junitFailure{Message: "the run was interrupted: " + xmlSafe(o.Reason), Type: "interrupted",
				Text: xmlSafe(o.Line() + "\n")}}}})
	}
	if sum.outcome.Status == "UNCHECKED" {
		name := prefix + "verdict"
		suites = append(suites, junitSuite{Name: name, Tests: 1, Failures: 1, Properties: props, Cases: []junitCase{{
			Name: "tools checked", Classname: name,
			Failure: &junitFailure{Message: "no tool was checked: " + sum.outcome.SkippedText(), Type: "unchecked",
				Text: xmlSafe(sum.outcome.String() + "\n")}}}})
	}
	return suites
}

// junitToolCase is the test case of one check: failed with the text of its blocking findings,
// the others as its output.
func junitToolCase(classname string, tc toolCheck, r *Report) junitCase {
	jc := junitCase{Name: tc.tool, Classname: classname}
	var fail, note []string
	for _, f := range tc.findings {
		if f.Fails() {
			fail = append(fail, junitFinding(f, r.At(f)))
		} else {
			note = append(note, junitFinding(f, r.At(f)))
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
	}
	if len(note) > 0 {
		jc.SystemOut = &junitText{xmlSafe(strings.Join(note, "\n"))}
	}
	return jc
}

func writeJUnit(w io.Writer, suites []junitSuite, opts JUnitOptions) error {
	doc := struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Time     string       `xml:"time,attr,omitempty"`
		Suites   []junitSuite `xml:"testsuite"`
	}{Suites: suites}
	if opts.Elapsed > 0 {
		doc.Time = fmt.Sprintf("%.3f", opts.Elapsed.Seconds())
	}
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

// writeReportJUnit writes JUnit XML: one test suite per class, one test case per tool checked
// in it (failed when it has a blocking finding, whose text the failure holds), and a suite of
// the skipped tools; the validator, profile and seed are suite properties.
func writeReportJUnit(w io.Writer, r *Report) error {
	return r.WriteJUnit(w, JUnitOptions{})
}

// WriteJUnit writes the report as JUnit XML (writeReportJUnit), with the run's wall time when opts has it.
func (r *Report) WriteJUnit(w io.Writer, opts JUnitOptions) error {
	return writeJUnit(w, junitSuites(summarize(r), false), opts)
}

// writeComparisonJUnit writes one JUnit document with the suites of every validator (named
// toolproof/VALIDATOR/CLASS).
func writeComparisonJUnit(w io.Writer, cmp *Comparison) error {
	return cmp.WriteJUnit(w, JUnitOptions{})
}

// WriteJUnit writes the comparison as one JUnit document (writeComparisonJUnit), with the run's wall
// time when opts has it.
func (cmp *Comparison) WriteJUnit(w io.Writer, opts JUnitOptions) error {
	var suites []junitSuite
	for _, s := range newComparisonModel(cmp).reports {
		suites = append(suites, junitSuites(s, true)...)
	}
	return writeJUnit(w, suites, opts)
}
