package report

import (
	"fmt"
	"sort"
)

// ShardInfo is what the report of one shard of a run (Options.Shards) carries besides the
// report itself, so that Merge can put the shards together into the report of the whole run.
type ShardInfo struct {
	Index int `json:"index"` // this shard: tools whose index % Of == Index
	Of    int `json:"of"`    // the number of shards
	Tools int `json:"tools"` // tools in the whole list
	// List is a hash of the names and schemas of the whole list, so shards of other lists are
	// refused.
	List string `json:"list"`
	Run  string `json:"run"` // the options that decide the cases (checks, mutators, ...), the same in every shard
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
	// ClassOrder is Report.ClassOrder (not in the JSON of a whole run), the merged report's order.
	ClassOrder []string `json:"class_order,omitempty"`
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
	s.ClassOrder = r.ClassOrder
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
