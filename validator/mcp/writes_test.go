package mcp

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowWriter records each write, taking a while over each so that sends pile up.
type slowWriter struct {
	mu     sync.Mutex
	writes []string
}

func (w *slowWriter) Write(b []byte) (int, error) {
	time.Sleep(time.Millisecond)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(b))
	return len(b), nil
}

// TestWriteQueueBatches: lines sent at once by many calls are each written exactly once, whole,
// in fewer writes than lines, and a send returns only once its line is written.
func TestWriteQueueBatches(t *testing.T) {
	var q writeQueue
	w := &slowWriter{}
	const n = 200
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			line := fmt.Sprintf(`{"id":%d}`, i)
			if err := q.send(w, []byte(line), 0, true); err != nil {
				t.Error(err)
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if !strings.Contains(strings.Join(w.writes, ""), line+"\n") {
				t.Errorf("send of %s returned before its line was written", line)
			}
		}()
	}
	wg.Wait()
	var lines []string
	for _, b := range w.writes {
		if !strings.HasSuffix(b, "\n") {
			t.Fatalf("a write that does not end a line: %q", b)
		}
		lines = append(lines, strings.Split(strings.TrimSuffix(b, "\n"), "\n")...)
	}
	sort.Strings(lines)
	want := make([]string, n)
	for i := range want {
		want[i] = fmt.Sprintf(`{"id":%d}`, i)
	}
	sort.Strings(want)
	if !bytes.Equal([]byte(strings.Join(lines, ",")), []byte(strings.Join(want, ","))) {
		t.Fatalf("lines written %d, want each of %d once", len(lines), n)
	}
	if len(w.writes) >= n {
		t.Errorf("%d writes for %d lines sent at once: not batched", len(w.writes), n)
	}
}

// TestWriteQueueNoWait: sends that do not wait return while another write is under way, and
// their lines are still each written exactly once, whole, by the write under way.
func TestWriteQueueNoWait(t *testing.T) {
	var q writeQueue
	w := &slowWriter{}
	const n = 200
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := q.send(w, []byte(fmt.Sprintf(`{"id":%d}`, i)), 0, false); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	// Every send has returned; the last write may still be under way: a waiting send ends after it.
	if err := q.send(w, []byte(`{"id":"last"}`), 0, true); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	seen := map[string]int{}
	for _, b := range w.writes {
		if !strings.HasSuffix(b, "\n") {
			t.Fatalf("a write that does not end a line: %q", b)
		}
		for _, l := range strings.Split(strings.TrimSuffix(b, "\n"), "\n") {
			seen[l]++
		}
	}
	for i := range n {
		if l := fmt.Sprintf(`{"id":%d}`, i); seen[l] != 1 {
			t.Errorf("%s written %d times, want once", l, seen[l])
		}
	}
	if len(seen) != n+1 || len(w.writes) >= n {
		t.Errorf("%d distinct lines in %d writes, want %d lines in fewer writes than lines", len(seen), len(w.writes), n+1)
	}
}
