package classify

import (
	"sort"
	"unicode/utf8"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
)

// Summary is what a log's calls hold: verdicts, and the classes found, by frequency, overall and
// per tool, with examples.
type Summary struct {
	Calls        int                      `json:"calls"`
	Unreadable   []LineError              `json:"unreadable,omitempty"`
	Verdicts     map[mutators.Reading]int `json:"verdicts"`
	Classes      []ClassCount             `json:"classes"`
	Tools        []ToolSummary            `json:"tools"`
	UnknownTools map[string]int           `json:"unknown_tools,omitempty"` // calls of each tool no tool file defines
}

// ClassCount is how often one class was found: distortions, the calls that hold one, its
// variants by frequency, and the first examples.
type ClassCount struct {
	Class       corpus.Class   `json:"class"`
	Distortions int            `json:"distortions"`
	Calls       int            `json:"calls"`
	Variants    []VariantCount `json:"variants"`
	Examples    []Example      `json:"examples,omitempty"`
}

// VariantCount is how often one variant of a class was found.
type VariantCount struct {
	Variant string `json:"variant"`
	Count   int    `json:"count"`
}

// Example is a call that holds a class.
type Example struct {
	Line    int    `json:"line"`
	Tool    string `json:"tool"`
	Variant string `json:"variant"`
	Path    string `json:"path"`
	Args    string `json:"args"` // the argument text, cut to maxExample bytes
}

// ToolSummary is the verdicts and classes of one tool's calls.
type ToolSummary struct {
	Tool     string                   `json:"tool"`
	Calls    int                      `json:"calls"`
	Verdicts map[mutators.Reading]int `json:"verdicts"`
	Classes  []ClassCount             `json:"classes,omitempty"`
}

// maxExamples is how many examples a class keeps; maxExample how much of their text.
const (
	maxExamples = 3
	maxExample  = 200
)

// Summarise tallies the results (and the unreadable lines of the log).
func Summarise(rs []Result, unreadable []LineError) Summary {
	s := Summary{Calls: len(rs), Unreadable: unreadable, Verdicts: map[mutators.Reading]int{}}
	all := newTally(true)
	perTool := map[string]*tally{}
	toolCalls := map[string]*ToolSummary{}
	for _, r := range rs {
		s.Verdicts[r.Reading]++
		if r.Reading == mutators.UnknownTool {
			if s.UnknownTools == nil {
				s.UnknownTools = map[string]int{}
			}
			s.UnknownTools[r.Tool]++
			continue
		}
		ts := toolCalls[r.Tool]
		if ts == nil {
			ts = &ToolSummary{Tool: r.Tool, Verdicts: map[mutators.Reading]int{}}
			toolCalls[r.Tool], perTool[r.Tool] = ts, newTally(false)
		}
		ts.Calls++
		ts.Verdicts[r.Reading]++
		all.add(r)
		perTool[r.Tool].add(r)
	}
	s.Classes = all.counts()
	for name, ts := range toolCalls {
		ts.Classes = perTool[name].counts()
		s.Tools = append(s.Tools, *ts)
	}
	sort.Slice(s.Tools, func(i, j int) bool {
		a, b := s.Tools[i], s.Tools[j]
		if a.Calls-a.Verdicts[mutators.Valid] != b.Calls-b.Verdicts[mutators.Valid] {
			return a.Calls-a.Verdicts[mutators.Valid] > b.Calls-b.Verdicts[mutators.Valid]
		}
		return a.Tool < b.Tool
	})
	return s
}

// tally counts classes and variants.
type tally struct {
	examples bool
	byClass  map[corpus.Class]*ClassCount
	variants map[corpus.Class]map[string]int
}

func newTally(examples bool) *tally {
	return &tally{examples: examples, byClass: map[corpus.Class]*ClassCount{},
		variants: map[corpus.Class]map[string]int{}}
}

func (t *tally) add(r Result) {
	seen := map[corpus.Class]bool{}
	for _, d := range r.Distortions {
		cc := t.byClass[d.Class]
		if cc == nil {
			cc = &ClassCount{Class: d.Class}
			t.byClass[d.Class], t.variants[d.Class] = cc, map[string]int{}
		}
		cc.Distortions++
		t.variants[d.Class][d.Variant]++
		if !seen[d.Class] {
			seen[d.Class] = true
			cc.Calls++
			if t.examples && len(cc.Examples) < maxExamples {
				cc.Examples = append(cc.Examples,
					Example{Line: r.Line, Tool: r.Tool, Variant: d.Variant, Path: d.Path, Args: cut(r.Args)})
			}
		}
	}
}

// counts are the classes by frequency (distortions, then name), each with its variants.
func (t *tally) counts() []ClassCount {
	var out []ClassCount
	for c, cc := range t.byClass {
		for v, n := range t.variants[c] {
			cc.Variants = append(cc.Variants, VariantCount{Variant: v, Count: n})
		}
		sort.Slice(cc.Variants, func(i, j int) bool {
			a, b := cc.Variants[i], cc.Variants[j]
			return a.Count > b.Count || (a.Count == b.Count && a.Variant < b.Variant)
		})
		out = append(out, *cc)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Distortions > out[j].Distortions ||
			(out[i].Distortions == out[j].Distortions && out[i].Class < out[j].Class)
	})
	return out
}

// cut is b as text, no longer than maxExample bytes (cut at a rune).
func cut(b []byte) string {
	if len(b) <= maxExample {
		return string(b)
	}
	n := maxExample
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "..."
}
