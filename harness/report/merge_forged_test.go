package report

import (
	"strings"
	"testing"
)

// Merge allocates nothing from the numbers a document gives: a forged shard count is a clear
// error, not a panic or gigabytes.
func TestMergeForgedShardCount(t *testing.T) {
	for _, of := range []int{1 << 62, 20_000_000, 3} {
		rep := &Report{Validator: "v",
			Shard: &ShardInfo{Index: 0, Of: of, SkippedAt: []int{}, Shrinks: []ShardShrink{}}}
		_, err := Merge([]Document{NewDocument(rep)}, []string{"a.json"})
		if err == nil || !strings.Contains(err.Error(), "missing (given: 1 of") || len(err.Error()) > 400 {
			t.Errorf("of %d: err = %.400v", of, err)
		}
	}
}
