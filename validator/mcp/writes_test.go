package mcp

import (
	"fmt"
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

// sendAll sends n lines {"id":I} on q at once, from n goroutines, each waiting for its write
// or not; sent runs after each send with its line.
func sendAll(t *testing.T, q *writeQueue, w *slowWriter, n int, wait bool, sent func(line string)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			line := fmt.Sprintf(`{"id":%d}`, i)
			if err := q.send(w, []byte(line), 0, wait); err != nil {
				t.Error(err)
			}
			sent(line)
		}()
	}
	wg.Wait()
}

// written counts the lines w was given, failing the test on a write that does not end a line.
func (w *slowWriter) written(t *testing.T) map[string]int {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	seen := map[string]int{}
	for _, b := range w.writes {
		if !strings.HasSuffix(b, "\n") {
			t.Errorf("a write that does not end a line: %q", b)
		}
		for _, l := range strings.Split(strings.TrimSuffix(b, "\n"), "\n") {
			seen[l]++
		}
	}
	return seen
}

// checkWritten checks that each of the n lines sendAll sent was written once, whole, with
// extra more lines, in fewer writes than lines.
func checkWritten(t *testing.T, w *slowWriter, n, extra int) {
	t.Helper()
	seen := w.written(t)
	for i := range n {
		if l := fmt.Sprintf(`{"id":%d}`, i); seen[l] != 1 {
			t.Errorf("%s written %d times, want once", l, seen[l])
		}
	}
	w.mu.Lock()
	writes := len(w.writes)
	w.mu.Unlock()
	if len(seen) != n+extra || writes >= n {
		t.Errorf("%d distinct lines in %d writes, want %d lines in fewer writes than lines", len(seen), writes, n+extra)
	}
}

// TestWriteQueueBatches: lines sent at once by many calls are each written exactly once, whole,
// in fewer writes than lines, and a send returns only once its line is written.
func TestWriteQueueBatches(t *testing.T) {
	var q writeQueue
	w := &slowWriter{}
	sendAll(t, &q, w, 200, true, func(line string) {
		if w.written(t)[line] != 1 {
			t.Errorf("send of %s returned before its line was written", line)
		}
	})
	checkWritten(t, w, 200, 0)
}

// TestWriteQueueNoWait: sends that do not wait return while another write is under way, and
// their lines are still each written exactly once, whole, by the write under way.
func TestWriteQueueNoWait(t *testing.T) {
	var q writeQueue
	w := &slowWriter{}
	sendAll(t, &q, w, 200, false, func(string) {})
	// Every send has returned; the last write may still be under way: a waiting send ends after it.
	if err := q.send(w, []byte(`{"id":"last"}`), 0, true); err != nil {
		t.Fatal(err)
	}
	checkWritten(t, w, 200, 1)
}
