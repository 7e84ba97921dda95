package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// table is a table of text cells, written once and shown by the text and Markdown renderers
// alike.
type table struct {
	head  []string
	rows  []row
	right bool // as text, every column flush right (else flush left); Markdown right-aligns all but the first column
}

// row is one row of a table; a strong row (a total) is bold in Markdown.
type row struct {
	cells  []string
	strong bool
}

func itoa(n int) string { return strconv.Itoa(n) }

// writeText writes the table aligned in columns two spaces apart.
func (t *table) writeText(w io.Writer) error {
	var flags uint
	if t.right {
		flags = tabwriter.AlignRight
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', flags)
	for _, cells := range append([][]string{t.head}, t.cellRows()...) {
		for _, c := range cells {
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func (t *table) cellRows() [][]string {
	var out [][]string
	for _, r := range t.rows {
		out = append(out, r.cells)
	}
	return out
}

// writeMarkdown writes the table as a Markdown table, every cell made safe (mdCell), the first
// cell of a strong row in bold.
func (t *table) writeMarkdown(w io.Writer) {
	mdRow := func(cells []string, strong bool) {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range cells {
			c = mdCell(c)
			if strong && i == 0 {
				c = "**" + c + "**"
			}
			b.WriteString(" " + c + " |")
		}
		fmt.Fprintln(w, b.String())
	}
	mdRow(t.head, false)
	fmt.Fprintln(w, "|---|"+strings.Repeat("---:|", len(t.head)-1))
	for _, r := range t.rows {
		mdRow(r.cells, r.strong)
	}
}
