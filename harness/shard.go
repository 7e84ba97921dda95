package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator/tool"
)

// newShardInfo is the ShardInfo of a shard of all (nil when the run is not sharded).
func newShardInfo(opts Options, all []tool.Tool) *report.ShardInfo {
	if opts.Shards <= 0 {
		return nil
	}
	h := sha256.New()
	for _, t := range all {
		h.Write([]byte(t.Name))
		h.Write([]byte{0})
		h.Write(t.Parameters)
		h.Write([]byte{0})
	}
	var classes []string
	for _, m := range opts.mutators() {
		classes = append(classes, string(m.Class()))
	}
	run := fmt.Sprintf("checks %d; mutators %s; require-location %v; only-reject %v; shrink-steps %d",
		opts.Checks, strings.Join(classes, ","), opts.RequireLocation, opts.OnlyReject, opts.shrinkSteps())
	return &report.ShardInfo{Index: opts.Shard, Of: opts.Shards, Tools: len(all),
		List: hex.EncodeToString(h.Sum(nil))[:16],
		Run:  run, SkippedAt: []int{}, Shrinks: []report.ShardShrink{}}
}

// shardAt is the index in the whole list of shard s's i-th tool.
func shardAt(s *report.ShardInfo, i int) int { return s.Index + i*s.Of }

// addShrinks records the findings the shard's i-th tool shrank, as they were first seen.
func addShrinks(s *report.ShardInfo, i int, firsts []report.Finding) {
	if s == nil {
		return
	}
	for _, f := range firsts {
		s.Shrinks = append(s.Shrinks, report.ShardShrink{At: shardAt(s, i), First: f})
	}
}

// addSkipped records that the run skipped the shard's i-th tool.
func addSkipped(s *report.ShardInfo, i int) {
	if s != nil {
		s.SkippedAt = append(s.SkippedAt, shardAt(s, i))
	}
}

// shardOf is the tools of the shard opts names (all of them when the run is not sharded); the
// tools of the other shards stay the siblings to borrow from.
func shardOf(tools []tool.Tool, opts *Options) ([]tool.Tool, error) {
	if opts.Shards <= 0 {
		return tools, nil
	}
	if opts.Shard < 0 || opts.Shard >= opts.Shards {
		return nil, fmt.Errorf("shard %d/%d: want 0 <= shard < shards", opts.Shard, opts.Shards)
	}
	var mine []tool.Tool
	for i, t := range tools {
		if i%opts.Shards == opts.Shard {
			mine = append(mine, t)
		}
	}
	if opts.Siblings == nil {
		opts.Siblings = tools
	}
	return mine, nil
}
