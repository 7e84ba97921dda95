package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/toolproof/toolproof/corpus"
)

// Merge puts the documents of the shards of one run (Options.Shard, Options.Shards: every shard,
// each once) together into the document of the whole run: the same as an unsharded run with the
// same seed gives, finding for finding. names name the documents in errors (nil: document 1,
// 2, ...). It refuses documents that are not of shards, or of shards of different runs (seed,
// validators, profile, closed objects, options, tool list), a shard given twice and missing shards.
func Merge(docs []Document, names []string) (Document, error) {
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprintf("document %d", i+1)
	}
	if len(docs) == 0 {
		return Document{}, fmt.Errorf("merge: no documents")
	}
	if err := checkShards(docs, name); err != nil {
		return Document{}, err
	}
	by, err := shardOrder(docs, name)
	if err != nil {
		return Document{}, err
	}
	var out []*Report
	for j := range docs[0].Reports {
		var rs []*Report
		for _, i := range by {
			rs = append(rs, docs[i].Reports[j])
		}
		m, err := mergeReports(rs, func(k int) string { return name(by[k]) })
		if err != nil {
			return Document{}, err
		}
		out = append(out, m)
	}
	return NewDocument(out...), nil
}

// checkShards refuses documents that are not of shards of one run: each holds as many reports,
// each report of a shard, with the same validator, seed, profile, options and tool list as the
// first document's, and all of the same shard.
func checkShards(docs []Document, name func(int) string) error {
	for i, d := range docs {
		if len(d.Reports) == 0 {
			return fmt.Errorf("%s: holds no reports", name(i))
		}
		if len(d.Reports) != len(docs[0].Reports) {
			return fmt.Errorf("%s: holds %d reports, but %s holds %d", name(i), len(d.Reports),
				name(0), len(docs[0].Reports))
		}
		for j, r := range d.Reports {
			if r == nil || r.Shard == nil {
				return fmt.Errorf("%s: report %d (validator %s) is not the report of a shard of a run",
					name(i), j+1, validatorOf(r))
			}
			if r.Shard.Of <= 0 || r.Shard.Index < 0 || r.Shard.Index >= r.Shard.Of {
				return fmt.Errorf("%s: report %d: shard %d/%d is not a shard", name(i), j+1, r.Shard.Index, r.Shard.Of)
			}
			f := docs[0].Reports[j]
			for _, c := range []struct{ what, got, want string }{
				{"validator", r.Validator, f.Validator},
				{"seed", fmt.Sprint(r.Seed), fmt.Sprint(f.Seed)},
				{"profile", string(r.Profile), string(f.Profile)},
				{"closed objects", fmt.Sprint(r.Closed), fmt.Sprint(f.Closed)},
				{"options", r.Shard.Run, f.Shard.Run},
				{"shard count", fmt.Sprint(r.Shard.Of), fmt.Sprint(f.Shard.Of)},
				{"tool list", fmt.Sprintf("%d tools, hash %s", r.Shard.Tools, r.Shard.List),
					fmt.Sprintf("%d tools, hash %s", f.Shard.Tools, f.Shard.List)},
			} {
				if c.got != c.want {
					return fmt.Errorf("%s: report %d has %s %s, but %s has %s %s: not shards of one run", name(i), j+1,
						c.what, c.got, name(0), c.what, c.want)
				}
			}
			if r.Shard.Index != d.Reports[0].Shard.Index {
				return fmt.Errorf("%s: report %d is of shard %d/%d, report 1 of shard %d/%d", name(i), j+1,
					r.Shard.Index, r.Shard.Of, d.Reports[0].Shard.Index, r.Shard.Of)
			}
		}
	}
	return nil
}

// shardOrder is, for each shard in order, the index of its document; an error for a shard given
// twice or missing.
func shardOrder(docs []Document, name func(int) string) ([]int, error) {
	// The shard count is read from the documents: nothing is allocated from it until every
	// shard is known to be given (a forged count of 1e18 is a missing-shards error, not a
	// slice of that length).
	n := docs[0].Reports[0].Shard.Of
	given := map[int]int{}
	for i, d := range docs {
		k := d.Reports[0].Shard.Index
		if j, ok := given[k]; ok {
			return nil, fmt.Errorf("%s: shard %d/%d, given twice (%s is that shard too)", name(i), k, n, name(j))
		}
		given[k] = i
	}
	if len(docs) != n {
		const most = 10 // missing shards named
		var missing []string
		for k := 0; k < n && len(missing) < most; k++ {
			if _, ok := given[k]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", k, n))
			}
		}
		what := "shard"
		if n-len(docs) > 1 {
			what = "shards"
		}
		if n-len(docs) > len(missing) {
			missing = append(missing, fmt.Sprintf("and %d more", n-len(docs)-len(missing)))
		}
		return nil, fmt.Errorf("%s %s missing (given: %d of %d shards)", what,
			strings.Join(missing, ", "), len(docs), n)
	}
	by := make([]int, n)
	for k, i := range given {
		by[k] = i
	}
	return by, nil
}

// shrinkKey names a class and kind: a run shrinks one finding of each.
func shrinkKey(class corpus.Class, kind Kind) string { return string(class) + "\x00" + string(kind) }

func validatorOf(r *Report) string {
	if r == nil {
		return "(none)"
	}
	return r.Validator
}

// mergeReports merges the reports of the shards, in shard order.
func mergeReports(rs []*Report, name func(int) string) (*Report, error) {
	g := newMerger(rs)
	for i, r := range rs {
		if err := g.add(i, r, name); err != nil {
			return nil, err
		}
	}
	return g.finish(), nil
}

// merger puts the reports of the shards of one validator together.
type merger struct {
	m *Report
	// winner is, for each class and kind, the tool that shrinks it in the whole run: the first
	// in the list that found them, which is the first of the shards' shrinkers.
	winner       map[string]int
	outsideSkips []Skipped // tools skipped before the run, the same in every shard
	runSkips     []atSkip  // tools the run skipped, with their index in the whole list
	runNotes     []string  // notes the run wrote
	outsideNotes []string  // notes added after the run (the validator's), once each
	seenNote     map[string]bool
}

type atSkip struct {
	at int
	s  Skipped
}

func newMerger(rs []*Report) *merger {
	f := rs[0]
	g := &merger{winner: map[string]int{}, seenNote: map[string]bool{},
		m: &Report{Validator: f.Validator, Profile: f.Profile, Closed: f.Closed, Seed: f.Seed,
			Classes:  map[string]*ClassStats{},
			Findings: []Finding{}, Skipped: []Skipped{}, Checked: map[string][]string{},
			ClassOrder: f.Shard.ClassOrder}}
	for _, r := range rs {
		for _, s := range r.Shard.Shrinks {
			k := shrinkKey(s.First.Class, s.First.Kind)
			if w, ok := g.winner[k]; !ok || s.At < w {
				g.winner[k] = s.At
			}
		}
	}
	return g
}

// add adds the report of the i-th shard.
func (g *merger) add(i int, r *Report, name func(int) string) error {
	m, sh := g.m, r.Shard
	m.Tools += r.Tools
	m.GeneratorBugs += r.GeneratorBugs
	m.Unreachable += r.Unreachable
	m.Stale = append(m.Stale, r.Stale...)
	if r.Interrupted != "" {
		m.Interrupted = strings.TrimPrefix(m.Interrupted+"; ", "; ") + name(i) + ": " + r.Interrupted
	}
	for c, st := range r.Classes {
		if st != nil {
			AddStats(m.Classes, c, st)
		}
	}
	checked, err := sh.Checked.unpack()
	if err != nil {
		return fmt.Errorf("%s: report of %s: %v", name(i), r.Validator, err)
	}
	for c, tools := range checked {
		m.Checked[c] = append(m.Checked[c], tools...)
	}
	g.addFindings(r)
	if sh.Notes < 0 || sh.Notes > len(r.Notes) {
		return fmt.Errorf("%s: report of %s: %d notes, but the shard says the run wrote %d", name(i), r.Validator,
			len(r.Notes), sh.Notes)
	}
	g.runNotes = append(g.runNotes, r.Notes[:sh.Notes]...)
	for _, n := range r.Notes[sh.Notes:] {
		if !g.seenNote[n] {
			g.seenNote[n] = true
			g.outsideNotes = append(g.outsideNotes, n)
		}
	}
	return g.addSkips(i, r, name)
}

// addFindings adds the findings of a shard's report; a finding the shard shrank but a tool of
// an earlier shard shrinks in the whole run gets its first case back, as the whole run keeps it.
func (g *merger) addFindings(r *Report) {
	shrunk := map[string]ShardShrink{}
	for _, s := range r.Shard.Shrinks {
		shrunk[s.First.Group()] = s
	}
	for _, fd := range r.Findings {
		if s, ok := shrunk[fd.Group()]; ok && g.winner[shrinkKey(fd.Class, fd.Kind)] != s.At {
			count := fd.Count
			fd = s.First
			fd.Count = count
		}
		g.m.Findings = append(g.m.Findings, fd)
	}
}

// addSkips adds the skipped tools of the i-th shard's report.
func (g *merger) addSkips(i int, r *Report, name func(int) string) error {
	sh := r.Shard
	before := len(r.Skipped) - len(sh.SkippedAt)
	if before < 0 {
		return fmt.Errorf("%s: report of %s: %d skipped tools, but the shard says the run skipped %d", name(i),
			r.Validator, len(r.Skipped), len(sh.SkippedAt))
	}
	if i == 0 {
		g.outsideSkips = r.Skipped[:before]
	} else if !slices.Equal(g.outsideSkips, r.Skipped[:before]) {
		return fmt.Errorf("%s: report of %s: the tools skipped before the run differ from those of %s: not shards of "+
			"one tool list", name(i), r.Validator, name(0))
	}
	for k, at := range sh.SkippedAt {
		g.runSkips = append(g.runSkips, atSkip{at, r.Skipped[before+k]})
	}
	return nil
}

// finish is the merged report: skipped tools in list order, notes in report order, then the
// notes added after the run.
func (g *merger) finish() *Report {
	m := g.m
	sort.SliceStable(g.runSkips, func(i, j int) bool { return g.runSkips[i].at < g.runSkips[j].at })
	m.Skipped = append(m.Skipped, g.outsideSkips...)
	for _, s := range g.runSkips {
		m.Skipped = append(m.Skipped, s.s)
	}
	m.Notes = g.runNotes
	m.Finish()
	if len(g.outsideNotes) > 0 {
		m.Notes = append(m.Notes, g.outsideNotes...)
	}
	return m
}
