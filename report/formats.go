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
	switch format {
	case "html":
		return r.WriteHTML(w, opts.HTML)
	case "sarif":
		return r.WriteSARIF(w, opts.SARIF)
	}
	return r.Write(w, format)
}

// WriteFormat writes the comparison in any of Formats, with the options html and sarif use.
func (cmp *Comparison) WriteFormat(w io.Writer, format string, opts RenderOptions) error {
	switch format {
	case "html":
		return cmp.WriteHTML(w, opts.HTML)
	case "sarif":
		return cmp.WriteSARIF(w, opts.SARIF)
	}
	return cmp.Write(w, format)
}
