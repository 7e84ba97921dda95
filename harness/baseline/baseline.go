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
	"slices"
	"sort"
	"strings"

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
		return nil, fmt.Errorf("baseline %s: not a JSON report of toolproof run (write one with --format json, or "+
			"--report json=FILE): %v", file, err)
	}
	if doc.Reports == nil {
		return nil, fmt.Errorf("baseline %s: no \"reports\": not a JSON report of toolproof run", file)
	}
	for i, r := range doc.Reports {
		if err := checkEntries(r); err != nil {
			return nil, fmt.Errorf("baseline %s: reports[%d] (validator %s): %w", file, i, r.Validator, err)
		}
	}
	return &Baseline{File: file, reports: doc.Reports}, nil
}

// checkEntries refuses a report whose findings name a kind or an expectation toolproof does not
// report: a hand-edited or foreign baseline would otherwise match nothing, or match by accident.
func checkEntries(r *report.Report) error {
	check := func(list string, fs []report.Finding) error {
		for j, f := range fs {
			if !slices.Contains(report.Kinds(), f.Kind) {
				return fmt.Errorf("%s[%d] (tool %q): kind %q is not one toolproof reports (%s)",
					list, j, f.Tool, f.Kind, kindNames())
			}
			if f.Expect != corpus.Accept && f.Expect != corpus.Reject && f.Expect != corpus.Either {
				return fmt.Errorf("%s[%d] (tool %q): expect is %q, want accept, reject or either",
					list, j, f.Tool, f.Expect)
			}
		}
		return nil
	}
	if err := check("findings", r.Findings); err != nil {
		return err
	}
	if r.Baseline != nil {
		return check("baseline.known", r.Baseline.Known)
	}
	return nil
}

func kindNames() string {
	var names []string
	for _, k := range report.Kinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

// Key names a finding for the baseline: its tool, class and kind. A run keeps one minimal case
// per key, so a key is one known defect.
func Key(f report.Finding) string {
	return f.Tool + "\x00" + string(f.Class) + "\x00" + string(f.Kind)
}

// entries are the known findings the baseline holds for a validator: those of its report of the
// same name, or, when the baseline and the run each have one validator, of the one report it has
// if it is of the same validator in another version (a validator's name carries its version,
// which an upgrade changes). The note says why a report of another name was used or refused.
func (b *Baseline) entries(name string, validators int) ([]report.Finding, string) {
	for _, r := range b.reports {
		if r.Validator == name {
			return known(r), ""
		}
	}
	if len(b.reports) != 1 || validators != 1 {
		return nil, ""
	}
	r := b.reports[0]
	if identity(r.Validator) != identity(name) {
		return nil, fmt.Sprintf("baseline %s: its report is of validator %s, not %s: its findings are not used "+
			"(write the baseline from a run of %s)", b.File, r.Validator, name, identity(name))
	}
	return known(r), fmt.Sprintf("baseline %s: its report is of validator %s; used for %s", b.File, r.Validator, name)
}

// identity is a validator's name without its version: the names are written NAME VERSION
// ("ajv 8.20.0", "seed-zod zod 4.6.7", "mcp:server-everything 2.0.0"), and a last field that
// starts with a digit, or with v and a digit, is the version.
func identity(name string) string {
	fields := strings.Fields(name)
	if n := len(fields); n > 1 {
		last := strings.TrimPrefix(fields[n-1], "v")
		if last != "" && last[0] >= '0' && last[0] <= '9' {
			return strings.Join(fields[:n-1], " ")
		}
	}
	return strings.Join(fields, " ")
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
func (b *Baseline) Replay(tools []tool.Tool, v validator.Validator, validators int,
	opts harness.Options) (*Replayed, error) {
	es, note := b.entries(v.Name(), validators)
	out := &Replayed{File: b.File}
	if note != "" {
		out.Notes = append(out.Notes, note)
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
