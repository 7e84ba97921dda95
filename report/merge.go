package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/tool"
)

// ShardInfo is what the report of one shard of a run (Options.Shards) carries besides the
// report itself, so that Merge can put the shards together into the report of the whole run.
type ShardInfo struct {
	Index int    `json:"index"` // this shard: tools whose index % Of == Index
	Of    int    `json:"of"`    // the number of shards
	Tools int    `json:"tools"` // tools in the whole list
	List  string `json:"list"`  // a hash of the names and schemas of the whole list, so shards of other lists are refused
	Run   string `json:"run"`   // the options that decide the cases (checks, mutators, ...), the same in every shard
	// Checked is Report.Checked (not in the JSON of a whole run).
	Checked ShardChecked `json:"checked"`
	// SkippedAt is, for each tool the run skipped, its index in the whole list: they are the last
	// len(SkippedAt) entries of Report.Skipped. Entries before them were skipped before the run
	// (by whoever loaded the tools) and are the same in every shard.
	SkippedAt []int `json:"skipped_at"`
	// Notes is how many of Report.Notes the run wrote (the first ones); the rest were added after
	// it (the validator's own notes).
	Notes int `json:"notes"`
	// Shrinks are the findings this shard shrank, with their first case as it was before.
	Shrinks []ShardShrink `json:"shrinks"`
}

// ShardShrink is a finding a shard shrank: a run shrinks one case per class and kind, in the first
// tool of the whole list that finds them. A shard shrinks in its own first tool; when a tool of
// another shard comes before it, Merge puts the first case back, as the whole run keeps it.
type ShardShrink struct {
	At    int     `json:"at"`    // the tool's index in the whole list
	First Finding `json:"first"` // the finding as it was before shrinking
}

// ShardChecked is Report.Checked, compact: most tools are checked in most classes.
type ShardChecked struct {
	Tools []string `json:"tools"` // the tools checked in any class, sorted
	// Except has every class of Report.Checked, with the indices in Tools of the tools not
	// checked in it.
	Except map[string][]int `json:"except"`
}

func packChecked(m map[string][]string) ShardChecked {
	c := ShardChecked{Tools: []string{}, Except: map[string][]int{}}
	seen := map[string]bool{}
	for _, tools := range m {
		for _, t := range tools {
			if !seen[t] {
				seen[t] = true
				c.Tools = append(c.Tools, t)
			}
		}
	}
	sort.Strings(c.Tools)
	for class, tools := range m {
		in := map[string]bool{}
		for _, t := range tools {
			in[t] = true
		}
		except := []int{}
		for i, t := range c.Tools {
			if !in[t] {
				except = append(except, i)
			}
		}
		c.Except[class] = except
	}
	return c
}

func (c ShardChecked) unpack() (map[string][]string, error) {
	m := map[string][]string{}
	for class, except := range c.Except {
		out := map[int]bool{}
		for _, i := range except {
			if i < 0 || i >= len(c.Tools) {
				return nil, fmt.Errorf("checked tools of class %s: index %d out of range", class, i)
			}
			out[i] = true
		}
		tools := []string{}
		for i, t := range c.Tools {
			if !out[i] {
				tools = append(tools, t)
			}
		}
		m[class] = tools
	}
	return m, nil
}

// finish takes what it needs from the finished report r.
func (s *ShardInfo) finish(r *Report) {
	if s == nil {
		return
	}
	s.Checked = packChecked(r.Checked)
	s.Notes = len(r.Notes)
	sort.Slice(s.Shrinks, func(i, j int) bool {
		a, b := s.Shrinks[i], s.Shrinks[j]
		if a.At != b.At {
			return a.At < b.At
		}
		if a.First.Class != b.First.Class {
			return a.First.Class < b.First.Class
		}
		return a.First.Kind < b.First.Kind
	})
}

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
	for i, d := range docs {
		if len(d.Reports) == 0 {
			return Document{}, fmt.Errorf("%s: holds no reports", name(i))
		}
		if len(d.Reports) != len(docs[0].Reports) {
			return Document{}, fmt.Errorf("%s: holds %d reports, but %s holds %d", name(i), len(d.Reports), name(0), len(docs[0].Reports))
		}
		for j, r := range d.Reports {
			if r == nil || r.Shard == nil {
				return Document{}, fmt.Errorf("%s: report %d (validator %s) is not the report of a shard of a run", name(i), j+1, validatorOf(r))
			}
			if r.Shard.Of <= 0 || r.Shard.Index < 0 || r.Shard.Index >= r.Shard.Of {
				return Document{}, fmt.Errorf("%s: report %d: shard %d/%d is not a shard", name(i), j+1, r.Shard.Index, r.Shard.Of)
			}
			f := docs[0].Reports[j]
			for _, c := range []struct{ what, got, want string }{
				{"validator", r.Validator, f.Validator},
				{"seed", fmt.Sprint(r.Seed), fmt.Sprint(f.Seed)},
				{"profile", string(r.Profile), string(f.Profile)},
				{"closed objects", fmt.Sprint(r.Closed), fmt.Sprint(f.Closed)},
				{"options", r.Shard.Run, f.Shard.Run},
				{"shard count", fmt.Sprint(r.Shard.Of), fmt.Sprint(f.Shard.Of)},
				{"tool list", fmt.Sprintf("%d tools, hash %s", r.Shard.Tools, r.Shard.List), fmt.Sprintf("%d tools, hash %s", f.Shard.Tools, f.Shard.List)},
			} {
				if c.got != c.want {
					return Document{}, fmt.Errorf("%s: report %d has %s %s, but %s has %s %s: not shards of one run", name(i), j+1, c.what, c.got, name(0), c.what, c.want)
				}
			}
			if r.Shard.Index != d.Reports[0].Shard.Index {
				return Document{}, fmt.Errorf("%s: report %d is of shard %d/%d, report 1 of shard %d/%d", name(i), j+1, r.Shard.Index, r.Shard.Of, d.Reports[0].Shard.Index, r.Shard.Of)
			}
		}
	}
	// The shard count is read from the documents: nothing is allocated from it (a forged count
	// of 1e18 is a missing-shards error, not a slice of that length).
	n := docs[0].Reports[0].Shard.Of
	given := map[int]int{}
	for i, d := range docs {
		k := d.Reports[0].Shard.Index
		if j, ok := given[k]; ok {
			return Document{}, fmt.Errorf("%s: shard %d/%d, given twice (%s is that shard too)", name(i), k, n, name(j))
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
		return Document{}, fmt.Errorf("%s %s missing (given: %d of %d shards)", what, strings.Join(missing, ", "), len(docs), n)
	}
	by := make([]int, n)
	for k, i := range given {
		by[k] = i
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

// shrinkKey names a class and kind: a run shrinks one finding of each.
func shrinkKey(class cases.Class, kind Kind) string { return string(class) + "\x00" + string(kind) }

func validatorOf(r *Report) string {
	if r == nil {
		return "(none)"
	}
	return r.Validator
}

// mergeReports merges the reports of the shards, in shard order.
func mergeReports(rs []*Report, name func(int) string) (*Report, error) {
	f := rs[0]
	m := &Report{Validator: f.Validator, Profile: f.Profile, Closed: f.Closed, Seed: f.Seed, Classes: map[string]*ClassStats{},
		Findings: []Finding{}, Skipped: []tool.Skipped{}, Checked: map[string][]string{}}
	// The tool that shrinks a class and kind in the whole run: the first in the list that found
	// them, which is the first of the shards' shrinkers.
	winner := map[string]int{}
	for _, r := range rs {
		for _, s := range r.Shard.Shrinks {
			k := shrinkKey(s.First.Class, s.First.Kind)
			if w, ok := winner[k]; !ok || s.At < w {
				winner[k] = s.At
			}
		}
	}
	type atSkip struct {
		at int
		s  tool.Skipped
	}
	var outsideSkips []tool.Skipped
	var runSkips []atSkip
	var runNotes, outsideNotes []string
	seenNote := map[string]bool{}
	for i, r := range rs {
		sh := r.Shard
		m.Tools += r.Tools
		m.GeneratorBugs += r.GeneratorBugs
		m.Unreachable += r.Unreachable
		m.Stale = append(m.Stale, r.Stale...)
		if r.Interrupted != "" {
			m.Interrupted = strings.TrimPrefix(m.Interrupted+"; ", "; ") + name(i) + ": " + r.Interrupted
		}
		for c, st := range r.Classes {
			if st != nil {
				StatsFor(m.Classes, cases.Class(c)).Merge(st)
			}
		}
		checked, err := sh.Checked.unpack()
		if err != nil {
			return nil, fmt.Errorf("%s: report of %s: %v", name(i), r.Validator, err)
		}
		for c, tools := range checked {
			m.Checked[c] = append(m.Checked[c], tools...)
		}
		shrunk := map[string]ShardShrink{}
		for _, s := range sh.Shrinks {
			shrunk[s.First.Group()] = s
		}
		for _, fd := range r.Findings {
			if s, ok := shrunk[fd.Group()]; ok && winner[shrinkKey(fd.Class, fd.Kind)] != s.At {
				count := fd.Count
				fd = s.First
				fd.Count = count
			}
			m.Findings = append(m.Findings, fd)
		}
		if sh.Notes < 0 || sh.Notes > len(r.Notes) {
			return nil, fmt.Errorf("%s: report of %s: %d notes, but the shard says the run wrote %d", name(i), r.Validator, len(r.Notes), sh.Notes)
		}
		runNotes = append(runNotes, r.Notes[:sh.Notes]...)
		for _, n := range r.Notes[sh.Notes:] {
			if !seenNote[n] {
				seenNote[n] = true
				outsideNotes = append(outsideNotes, n)
			}
		}
		before := len(r.Skipped) - len(sh.SkippedAt)
		if before < 0 {
			return nil, fmt.Errorf("%s: report of %s: %d skipped tools, but the shard says the run skipped %d", name(i), r.Validator, len(r.Skipped), len(sh.SkippedAt))
		}
		if i == 0 {
			outsideSkips = r.Skipped[:before]
		} else if !slices.Equal(outsideSkips, r.Skipped[:before]) {
			return nil, fmt.Errorf("%s: report of %s: the tools skipped before the run differ from those of %s: not shards of one tool list", name(i), r.Validator, name(0))
		}
		for k, at := range sh.SkippedAt {
			runSkips = append(runSkips, atSkip{at, r.Skipped[before+k]})
		}
	}
	sort.SliceStable(runSkips, func(i, j int) bool { return runSkips[i].at < runSkips[j].at })
	m.Skipped = append(m.Skipped, outsideSkips...)
	for _, s := range runSkips {
		m.Skipped = append(m.Skipped, s.s)
	}
	m.Notes = runNotes
	m.Finish()
	if len(outsideNotes) > 0 {
		m.Notes = append(m.Notes, outsideNotes...)
	}
	return m, nil
}
