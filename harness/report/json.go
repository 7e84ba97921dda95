package report

import (
	"io"
)

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
	enc := NewJSONEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// writeReportJSON writes the report as a Document with this one report: {"passed", "seed",
// "reports": [...]}, the same shape as a comparison's.
func writeReportJSON(w io.Writer, r *Report) error { return writeDocument(w, NewDocument(r)) }

// writeComparisonJSON writes the comparison as a Document: {"passed", "seed", "reports":
// [...]}, the shape of a single report's JSON.
func writeComparisonJSON(w io.Writer, cmp *Comparison) error {
	return writeDocument(w, NewDocument(cmp.Reports...))
}
