package report

import (
	"io"
	"time"
)

// KnownFormat reports whether format names one of Formats (or "md", Markdown's short name).
func KnownFormat(format string) bool {
	_, err := FormatNamed(format)
	return err == nil
}

// RenderOptions is what the HTML, SARIF and JUnit formats show beyond the report itself.
type RenderOptions struct {
	HTML  HTMLOptions
	SARIF SARIFOptions
	JUnit JUnitOptions
}

// JUnitOptions is what the JUnit format shows beyond the report itself.
type JUnitOptions struct {
	// Elapsed is the run's wall time, the testsuites element's time attribute (0 leaves it out): the one
	// part of a JUnit report that differs between two runs of the same seed.
	Elapsed time.Duration
}

// WriteFormat writes the report in any of Formats, with the options html and sarif use.
func (r *Report) WriteFormat(w io.Writer, format string, opts RenderOptions) error {
	return writeFormat(r, w, format, opts)
}

// WriteFormat writes the comparison in any of Formats, with the options html and sarif use.
func (cmp *Comparison) WriteFormat(w io.Writer, format string, opts RenderOptions) error {
	return writeFormat(cmp, w, format, opts)
}

// renderable is a report or a comparison: what WriteFormat writes.
type renderable interface {
	Write(w io.Writer, format string) error
	WriteHTML(w io.Writer, opts HTMLOptions) error
	WriteSARIF(w io.Writer, opts SARIFOptions) error
	WriteJUnit(w io.Writer, opts JUnitOptions) error
}

func writeFormat(x renderable, w io.Writer, format string, opts RenderOptions) error {
	switch format {
	case "html":
		return x.WriteHTML(w, opts.HTML)
	case "sarif":
		return x.WriteSARIF(w, opts.SARIF)
	case "junit":
		return x.WriteJUnit(w, opts.JUnit)
	}
	return x.Write(w, format)
}
