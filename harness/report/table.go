package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Table is a table of text cells, built once and written as aligned text (WriteText) or as a
// Markdown table (WriteMarkdown): the class tables of the text and Markdown reports, and the
// tables of toolproof's other text outputs (classify's summary).
type Table struct {
	Head []string
	Rows []Row
	// Right writes every column flush right as text (else flush left); Markdown right-aligns all
	// but the first column either way.
	Right bool
	// Ragged leaves the last column of the text unpadded: no spaces end a line.
	Ragged bool
}

// Row is one row of a Table; a strong row (a total) is bold in Markdown.
type Row struct {
	Cells  []string
	Strong bool
}

func itoa(n int) string { return strconv.Itoa(n) }

// WriteText writes the table aligned in columns two spaces apart, every cell escaped (EscapeLine).
func (t *Table) WriteText(w io.Writer) error {
	var flags uint
	if t.Right {
		flags = tabwriter.AlignRight
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', flags)
	for _, cells := range append([][]string{t.Head}, t.cellRows()...) {
		for i, c := range cells {
			c = EscapeLine(c)
			if t.Ragged && i == len(cells)-1 {
				fmt.Fprint(tw, c)
				continue
			}
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func (t *Table) cellRows() [][]string {
	var out [][]string
	for _, r := range t.Rows {
		out = append(out, r.Cells)
	}
	return out
}

// WriteMarkdown writes the table as a Markdown table, every cell made safe (one line, no column
// breaks), the first cell of a strong row in bold.
func (t *Table) WriteMarkdown(w io.Writer) {
	mdRow := func(cells []string, strong bool) {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range cells {
			c = mdText(c)
			if strong && i == 0 {
				c = "**" + c + "**"
			}
			b.WriteString(" " + c + " |")
		}
		fmt.Fprintln(w, b.String())
	}
	mdRow(t.Head, false)
	fmt.Fprintln(w, "|---|"+strings.Repeat("---:|", len(t.Head)-1))
	for _, r := range t.Rows {
		mdRow(r.Cells, r.Strong)
	}
}
