package harness

import (
	"io"
	"strings"
)

// Formats are the report formats: Write and WriteFormat take each.
var Formats = []string{"text", "json", "junit", "markdown", "html", "sarif", "badge"}

// FormatList is Formats for messages: "text, json, ... or badge".
var FormatList = strings.Join(Formats[:len(Formats)-1], ", ") + " or " + Formats[len(Formats)-1]

// KnownFormat reports whether format is one of Formats (or "md", Markdown's short name).
func KnownFormat(format string) bool {
	return format == "md" || contains(Formats, format)
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
	case "badge":
		return r.WriteBadge(w)
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
	case "badge":
		return cmp.WriteBadge(w)
	}
	return cmp.Write(w, format)
}
