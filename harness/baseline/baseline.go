// Package baseline lets a run be judged against the known findings of an earlier one, so that a
// team can adopt toolproof on a gate that already has defects: each known finding's minimal case
// is replayed first, whatever the seed; one that still reproduces is known and does not fail the
// run, one that no longer does is fixed and fails it (so that the baseline shrinks), and any
// other finding fails as usual.
package baseline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// Baseline is the known findings of an earlier run, per validator.
type Baseline struct {
	File    string
	reports []*report.Report
}

// Load reads a baseline: a JSON report of toolproof run (or merge), or what Trim made of one.
func Load(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %v", err)
	}
	return Parse(data, path)
}

// Parse reads a baseline from the bytes of a JSON report; file names it in messages.
func Parse(data []byte, file string) (*Baseline, error) {
	var doc report.Document
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("baseline %s: not a JSON report of toolproof run (write one with --format json, or --report json=FILE): %v", file, err)
	}
	if doc.Reports == nil {
		return nil, fmt.Errorf("baseline %s: no \"reports\": not a JSON report of toolproof run", file)
	}
	return &Baseline{File: file, reports: doc.Reports}, nil
}

// Key names a finding for the baseline: its tool, class and kind. A run keeps one minimal case
// per key, so a key is one known defect.
func Key(f report.Finding) string {
	return f.Tool + "\x00" + string(f.Class) + "\x00" + string(f.Kind)
}

// entries are the known findings the baseline holds for a validator: those of its report of the
// same name, or, when the baseline and the run each have one validator, of the one report it has
// (a validator's name carries its version, which an upgrade changes). The bool says whether the
// name differed.
func (b *Baseline) entries(name string, validators int) ([]report.Finding, bool) {
	for _, r := range b.reports {
		if r.Validator == name {
			return known(r), false
		}
	}
	if len(b.reports) == 1 && validators == 1 {
		return known(b.reports[0]), b.reports[0].Validator != name
	}
	return nil, false
}

// known are a report's blocking findings and the known entries of its own baseline, one per key.
func known(r *report.Report) []report.Finding {
	var out []report.Finding
	seen := map[string]bool{}
	add := func(f report.Finding) {
		if k := Key(f); f.Blocking && !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	for _, f := range r.Findings {
		add(f)
	}
	if r.Baseline != nil {
		for _, f := range r.Baseline.Known {
			add(f)
		}
	}
	return out
}

// Replayed is what replaying a baseline's known findings against a validator found: the entries
// that reproduce (with the verdict they got now) and those that do not.
type Replayed struct {
	File         string
	Known, Fixed []report.Finding
	Notes        []string
}

// Replay replays the validator's known findings against it, before the run: each entry's minimal
// case, whatever the seed of the run. validators is how many validators the run has; with
// opts.Shards, only the entries whose tool is in the shard are replayed (an entry whose tool is
// gone, in shard 0).
func (b *Baseline) Replay(tools []tool.Tool, v validator.Validator, validators int, opts harness.Options) (*Replayed, error) {
	es, renamed := b.entries(v.Name(), validators)
	out := &Replayed{File: b.File}
	if renamed {
		out.Notes = append(out.Notes, fmt.Sprintf("baseline %s: its report is of validator %s; used for %s", b.File, b.reports[0].Validator, v.Name()))
	}
	es = inShard(es, tools, opts)
	if len(es) == 0 {
		return out, nil
	}
	cs := make([]corpus.Case, len(es))
	for i, e := range es {
		cs[i] = e.Case
	}
	ropts := opts
	ropts.Shards, ropts.Shard, ropts.CorpusDir, ropts.Progress = 0, 0, "", nil
	ropts.Files = harness.Files{} // the known entries are listed as they reproduce, not placed in the tool file
	rep, err := harness.Replay(cs, tools, v, ropts)
	if err != nil {
		return nil, fmt.Errorf("baseline %s: replaying its known findings against %s: %w", b.File, v.Name(), err)
	}
	got := map[string]report.Finding{}
	for _, f := range rep.Findings {
		got[f.ID+"\x00"+string(f.Kind)] = f
	}
	for _, e := range es {
		if f, ok := got[e.ID+"\x00"+string(e.Kind)]; ok && f.Blocking {
			f.Known = true
			f.Count = 1
			out.Known = append(out.Known, f)
		} else {
			out.Fixed = append(out.Fixed, e)
		}
	}
	out.Notes = append(out.Notes, rep.Stale...)
	sortFindings(out.Known)
	sortFindings(out.Fixed)
	return out, nil
}

// inShard keeps the entries whose tool the shard checks (tool index modulo Shards); an entry
// whose tool is not among tools goes to shard 0, so that exactly one shard reports it fixed.
func inShard(es []report.Finding, tools []tool.Tool, opts harness.Options) []report.Finding {
	if opts.Shards <= 1 {
		return es
	}
	index := map[string]int{}
	for i, t := range tools {
		index[t.Name] = i
	}
	var out []report.Finding
	for _, e := range es {
		i, ok := index[e.Tool]
		if (ok && i%opts.Shards == opts.Shard) || (!ok && opts.Shard == 0) {
			out = append(out, e)
		}
	}
	return out
}

// Apply marks the run's report with what the replay found: every blocking finding whose key a
// reproduced entry has is known (it does not fail the run), the known and fixed entries are listed
// in Report.Baseline, and Passed is recounted (a fixed entry fails the run).
func Apply(rep *report.Report, r *Replayed) {
	keys := map[string]bool{}
	for _, f := range r.Known {
		keys[Key(f)] = true
	}
	for i := range rep.Findings {
		if rep.Findings[i].Blocking && keys[Key(rep.Findings[i])] {
			rep.Findings[i].Known = true
		}
	}
	rep.Baseline = &report.BaselineResult{File: r.File, Known: nonNil(r.Known), Fixed: nonNil(r.Fixed)}
	rep.Notes = append(rep.Notes, r.Notes...)
	rep.Recount()
}

// Union puts the baseline results of the shards of a run together, as the unsharded run has them.
func Union(parts []*report.BaselineResult) *report.BaselineResult {
	var out *report.BaselineResult
	for _, p := range parts {
		if p == nil {
			continue
		}
		if out == nil {
			out = &report.BaselineResult{File: p.File, Known: []report.Finding{}, Fixed: []report.Finding{}}
		}
		out.Known = append(out.Known, p.Known...)
		out.Fixed = append(out.Fixed, p.Fixed...)
	}
	if out != nil {
		sortFindings(out.Known)
		sortFindings(out.Fixed)
	}
	return out
}

func nonNil(fs []report.Finding) []report.Finding {
	if fs == nil {
		return []report.Finding{}
	}
	return fs
}

// sortFindings orders entries by tool, class, kind and id, whatever order they came in.
func sortFindings(fs []report.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if ki, kj := Key(fs[i]), Key(fs[j]); ki != kj {
			return ki < kj
		}
		return fs[i].ID < fs[j].ID
	})
}

// Trim keeps of a JSON report what a baseline needs: per validator, its blocking findings and the
// known entries of its own baseline, one per tool, class and kind, each with its case (what
// replaying it takes) and its verdict, without counts, classes, notes or skipped tools.
func Trim(doc report.Document) report.Document {
	out := report.Document{Passed: true, Seed: doc.Seed, Reports: []*report.Report{}}
	for _, r := range doc.Reports {
		t := &report.Report{Validator: r.Validator, Profile: r.Profile, Closed: r.Closed, Findings: []report.Finding{},
			Classes: map[string]*report.ClassStats{}, Skipped: []report.Skipped{}}
		for _, f := range known(r) {
			// Where the finding is in the tool file moves with every edit of the file: left out.
			f.Known, f.Count, f.Detail, f.Shrunk, f.Location = false, 0, "", false, report.Source{}
			t.Findings = append(t.Findings, f)
		}
		sortFindings(t.Findings)
		t.Passed = len(t.Findings) == 0
		out.Passed = out.Passed && t.Passed
		out.Reports = append(out.Reports, t)
	}
	return out
}

// Cases are the cases of every finding the baseline lists (of every validator, and the known
// entries of its own baseline), one per id, in order.
func (b *Baseline) Cases() []corpus.Case {
	var out []corpus.Case
	seen := map[string]bool{}
	for _, r := range b.reports {
		fs := append([]report.Finding{}, r.Findings...)
		if r.Baseline != nil {
			fs = append(append(fs, r.Baseline.Known...), r.Baseline.Fixed...)
		}
		for _, f := range fs {
			if !seen[f.ID] {
				seen[f.ID] = true
				out = append(out, f.Case)
			}
		}
	}
	return out
}
