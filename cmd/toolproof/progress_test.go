package main

import (
	"bytes"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		checked     int64
		elapsed     time.Duration
		done, total int64
		want        string
	}{
		{0, 0, 0, 0, "toolproof: 0 cases checked, 0/s, 0s elapsed"},
		{12345, 2500 * time.Millisecond, 0, 0, "toolproof: 12,345 cases checked, 4,938/s, 2s elapsed"},
		{1234567, 83 * time.Second, 3, 39, "toolproof: 1,234,567 cases checked, 14,874/s, 1m23s elapsed, 3/39 tools"},
	} {
		if got := progressLine(tc.checked, tc.elapsed, tc.done, tc.total); got != tc.want {
			t.Errorf("progressLine(%d, %v, %d, %d) = %q, want %q", tc.checked, tc.elapsed, tc.done,
				tc.total, got, tc.want)
		}
	}
}

// TestNoProgressOffATerminal: stderr that is not a terminal gets no progress line, and a run
// writes none there.
func TestNoProgressOffATerminal(t *testing.T) {
	if p := newLiveProgress(&bytes.Buffer{}); p != nil {
		t.Fatal("a progress line on a buffer")
	}
	r := must(t, 0, "run", "--checks", "3", "--seed", "1", "--tool", "read", "--validator", "reference")
	if bytes.Contains([]byte(r.stderr), []byte("cases checked")) {
		t.Errorf("progress on stderr that is not a terminal:\n%s", r.stderr)
	}
}
