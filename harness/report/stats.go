package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/validator"
)

// ClassStats counts the cases of one class.
type ClassStats struct {
	Cases         int          `json:"cases"`
	Failed        int          `json:"failed"`         // cases with a blocking finding
	NotApplicable int          `json:"not_applicable"` // draws where the class applied nowhere
	ByKind        map[Kind]int `json:"by_kind,omitempty"`
	// Either counts the cases whose verdict is implementation-defined (expectation either: the
	// binary64 rule, duplicate keys, ...), never failed; EitherAccepted of them were accepted.
	Either         int `json:"either,omitempty"`
	EitherAccepted int `json:"either_accepted,omitempty"`
	// Unclear counts the answers that were neither a rejection nor a call gone through
	// (validator.Verdict.Unclear); never failed. Samples keeps a few of them.
	Unclear int      `json:"unclear,omitempty"`
	Samples []string `json:"unclear_samples,omitempty"`
	// Rejected counts the must-reject cases rejected; Located those of them with an issue where
	// the change is (at its place, inside it, or above it as far as the schema lets a gate know).
	Rejected int `json:"rejected,omitempty"`
	Located  int `json:"located,omitempty"`
}

// maxSamples is how many unclear answers a class keeps as samples.
const maxSamples = 3

// StatsFor is the counts of class in m, added when m has none yet.
func StatsFor(m map[string]*ClassStats, class corpus.Class) *ClassStats {
	st := m[string(class)]
	if st == nil {
		st = &ClassStats{ByKind: map[Kind]int{}}
		m[string(class)] = st
	}
	return st
}

// Merge adds the counts of o to s, keeping the first samples in text order.
func (s *ClassStats) Merge(o *ClassStats) {
	s.Cases += o.Cases
	s.Failed += o.Failed
	s.NotApplicable += o.NotApplicable
	s.Either += o.Either
	s.EitherAccepted += o.EitherAccepted
	s.Unclear += o.Unclear
	s.Rejected += o.Rejected
	s.Located += o.Located
	// The first samples in text order, whatever order the tools finish in (or the shards merge).
	s.Samples = append(s.Samples, o.Samples...)
	sort.Strings(s.Samples)
	if len(s.Samples) > maxSamples {
		s.Samples = s.Samples[:maxSamples]
	}
	for k, n := range o.ByKind {
		s.ByKind[k] += n
	}
}

// Count counts one case of the class in s: its verdict v and the findings fs judged from it.
func (s *ClassStats) Count(c *corpus.Case, v validator.Verdict, fs []Finding) {
	if v.NotSent {
		s.NotApplicable++
		return
	}
	s.Cases++
	switch {
	case v.Fault != "":
	case v.Unclear:
		s.Unclear++
		if len(s.Samples) < maxSamples {
			// Valid UTF-8, so that the JSON report (and a merge of shards) holds the sample as shown.
			s.Samples = append(s.Samples, strings.ToValidUTF8(fmt.Sprintf("%s %s: %s", c.Tool, truncate(string(c.Args), 120), truncate(v.Detail, 200)), "\uFFFD"))
		}
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
			located = located && f.Kind != ImpreciseLocation
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
