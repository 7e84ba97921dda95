package report

import "io"

// KnownFormat reports whether format names one of Formats (or "md", Markdown's short name).
func KnownFormat(format string) bool {
	_, err := FormatNamed(format)
	return err == nil
}

// RenderOptions is what the HTML and SARIF formats show beyond the report itself.
type RenderOptions struct {
	HTML  HTMLOptions
	SARIF SARIFOptions
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
}

func writeFormat(x renderable, w io.Writer, format string, opts RenderOptions) error {
	switch format {
	case "html":
		return x.WriteHTML(w, opts.HTML)
	case "sarif":
		return x.WriteSARIF(w, opts.SARIF)
	}
	return x.Write(w, format)
}
