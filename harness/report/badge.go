package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// Badge is a shields.io endpoint document (https://shields.io/badges/endpoint-badge).
type Badge struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
}

// holds reports whether a class of the report holds: it had cases and no finding in it fails the
// run (a known one does not; a fixed baseline entry does).
func (r *Report) holds(class string) bool {
	st := r.Classes[class]
	if st == nil || st.Cases == 0 {
		return false
	}
	for _, f := range r.Findings {
		if string(f.Class) == class && f.Fails() {
			return false
		}
	}
	if r.Baseline != nil {
		for _, f := range r.Baseline.Fixed {
			if string(f.Class) == class {
				return false
			}
		}
	}
	return true
}

// badge counts the classes with cases and those that hold in every report.
func badge(rs []*Report) Badge {
	var classes []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, c := range r.classOrder() {
			if st := r.Classes[c]; st.Cases > 0 && !seen[c] {
				seen[c] = true
				classes = append(classes, c)
			}
		}
	}
	held := 0
	for _, c := range classes {
		ok := true
		for _, r := range rs {
			ok = ok && r.holds(c)
		}
		if ok {
			held++
		}
	}
	b := Badge{SchemaVersion: 1, Label: "toolproof",
		Message: fmt.Sprintf("%d/%d classes hold", held, len(classes)), Color: "yellow"}
	switch {
	case len(classes) == 0:
		b.Message, b.Color = "no tool checked", "red"
	case held == len(classes):
		b.Color = "brightgreen"
	case held == 0:
		b.Color = "red"
	}
	return b
}

func writeBadge(w io.Writer, b Badge) error {
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// WriteBadge writes a shields.io endpoint document: "N/M classes hold", M the classes that had
// cases, N those without a finding that fails the run; green when all hold, red when none, and
// "no tool checked" (red) when no class had a case.
func (r *Report) WriteBadge(w io.Writer) error { return writeBadge(w, badge([]*Report{r})) }

// WriteBadge writes the badge of a comparison: a class holds when it holds for every validator.
func (cmp *Comparison) WriteBadge(w io.Writer) error { return writeBadge(w, badge(cmp.Reports)) }
