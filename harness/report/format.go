package report

import (
	"fmt"
	"io"
	"strings"
)

// format is one output format: its names and its renderers of a report and of a comparison.
type format struct {
	names      []string // the first is the name Formats gives
	report     func(io.Writer, *Report) error
	comparison func(io.Writer, *Comparison) error
}

// formats lists every format, in the order Formats gives them. A format is a renderer of the
// report's model and of the comparison's, in a file of its own.
var formats = []format{
	{[]string{"text", ""}, writeText, writeComparisonText},
	{[]string{"json"}, writeReportJSON, writeComparisonJSON},
	{[]string{"junit"}, writeReportJUnit, writeComparisonJUnit},
	{[]string{"markdown", "md"}, writeMarkdown, writeComparisonMarkdown},
	{[]string{"html"}, func(w io.Writer, r *Report) error { return r.WriteHTML(w, HTMLOptions{}) },
		func(w io.Writer, c *Comparison) error { return c.WriteHTML(w, HTMLOptions{}) }},
	{[]string{"sarif"}, func(w io.Writer, r *Report) error { return r.WriteSARIF(w, SARIFOptions{}) },
		func(w io.Writer, c *Comparison) error { return c.WriteSARIF(w, SARIFOptions{}) }},
	{[]string{"badge"}, func(w io.Writer, r *Report) error { return r.WriteBadge(w) },
		func(w io.Writer, c *Comparison) error { return c.WriteBadge(w) }},
}

// Formats names the formats Write takes: text, json, junit, markdown, html, sarif, badge
// (WriteFormat gives html and sarif their options).
func Formats() []string {
	var out []string
	for _, f := range formats {
		out = append(out, f.names[0])
	}
	return out
}

// FormatList is the formats in a sentence: "text, json, junit, markdown, html, sarif or badge".
func FormatList() string {
	names := Formats()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// FormatNamed is the name of a format as Formats gives it, for a name a user gave ("md" is
// "markdown"), or an error saying which formats there are.
func FormatNamed(name string) (string, error) {
	f, err := formatNamed(name)
	if err != nil || name == "" {
		return "", fmt.Errorf("unknown format %q (want %s)", name, FormatList())
	}
	return f.names[0], nil
}

func formatNamed(name string) (format, error) {
	for _, f := range formats {
		for _, n := range f.names {
			if n == name {
				return f, nil
			}
		}
	}
	return format{}, fmt.Errorf("unknown format %q (want %s)", name, FormatList())
}

// Write writes the report in a format (Formats).
func (r *Report) Write(w io.Writer, format string) error {
	f, err := formatNamed(format)
	if err != nil {
		return err
	}
	return f.report(w, r)
}

// Write writes the comparison in a format (Formats): text, json, markdown, or junit (one
// document, the suites of every validator).
func (cmp *Comparison) Write(w io.Writer, format string) error {
	f, err := formatNamed(format)
	if err != nil {
		return err
	}
	return f.comparison(w, cmp)
}
