package harness

import (
	"fmt"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
)

// statsFor is the counts of class in m, added when m has none yet.
func statsFor(m map[string]*report.ClassStats, class corpus.Class) *report.ClassStats {
	st := m[string(class)]
	if st == nil {
		st = &report.ClassStats{ByKind: map[report.Kind]int{}}
		m[string(class)] = st
	}
	return st
}

// count counts one case of its class in s: its verdict v and the findings fs judged from it.
func count(s *report.ClassStats, c *corpus.Case, v validator.Verdict, fs []report.Finding) {
	if v.NotSent {
		s.NotApplicable++
		return
	}
	s.Cases++
	switch {
	case v.Fault != "":
	case v.Unclear && !answeredInError(c, v):
		s.Unclear++
		s.AddSample(fmt.Sprintf("%s %s: %s", c.Tool, report.Truncate(string(c.Args), 120),
			report.Truncate(v.Detail, 200)))
	case c.Expect == corpus.Either:
		s.Either++
		if v.Valid {
			s.EitherAccepted++
		}
	case c.Expect == corpus.Reject && !v.Valid:
		// judge has located it already: an imprecise_location finding says it did not.
		s.Rejected++
		located := true
		for _, f := range fs {
			located = located && f.Kind != report.ImpreciseLocation
		}
		if located {
			s.Located++
		}
	}
	blocking := false
	for _, f := range fs {
		s.ByKind[f.Kind]++
		blocking = blocking || f.Blocking
	}
	if blocking {
		s.Failed++
	}
}
