package report

import (
	"sort"
	"strings"
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

// MaxSamples is how many unclear answers a class keeps as samples.
const MaxSamples = 3

// AddStats adds the counts st of class to those m has of it (none yet: a copy of st's).
func AddStats(m map[string]*ClassStats, class string, st *ClassStats) {
	if m[class] == nil {
		m[class] = &ClassStats{ByKind: map[Kind]int{}}
	}
	m[class].Merge(st)
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
	if len(s.Samples) > MaxSamples {
		s.Samples = s.Samples[:MaxSamples]
	}
	for k, n := range o.ByKind {
		s.ByKind[k] += n
	}
}

// AddSample keeps an unclear answer as a sample, while s has fewer than MaxSamples; as valid
// UTF-8, so that the JSON report (and a merge of shards) holds it as shown.
func (s *ClassStats) AddSample(sample string) {
	if len(s.Samples) < MaxSamples {
		s.Samples = append(s.Samples, strings.ToValidUTF8(sample, "\uFFFD"))
	}
}
