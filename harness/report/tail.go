package report

import (
	"fmt"
	"io"
)

// tailStyle is how the text and Markdown renderers write the lists a report ends with: each
// heading, what starts each line, and how each item is made safe for the format.
type tailStyle struct {
	unclear, skipped string // the headings (skipped takes the count)
	item             string // starts a sample or a skipped tool
	lead             string // starts a stale saved case or a note
	apart            bool   // a blank line before the stale saved cases and notes
	class, sample    func(string) string
	skippedTool      func(string) string
	stale, note      func(string) string
}

// writeTail writes the unclear samples by class, the skipped tools, the stale saved cases and
// the notes, in st's style.
func writeTail(w io.Writer, r *Report, s *summary, st tailStyle) {
	if s.unclear {
		fmt.Fprint(w, st.unclear)
		for _, c := range s.classes {
			for _, sample := range r.Classes[c].Samples {
				fmt.Fprintf(w, "%s%s: %s\n", st.item, st.class(c), st.sample(sample))
			}
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, st.skipped, len(r.Skipped))
		for _, sk := range r.Skipped {
			fmt.Fprintf(w, "%s%s\n", st.item, st.skippedTool(sk.String()))
		}
	}
	if st.apart && len(r.Stale)+len(r.Notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, x := range r.Stale {
		fmt.Fprintf(w, "%sstale saved case: %s\n", st.lead, st.stale(x))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "%snote: %s\n", st.lead, st.note(n))
	}
}
