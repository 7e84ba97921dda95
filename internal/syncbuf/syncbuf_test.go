package syncbuf_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/toolproof/toolproof/internal/syncbuf"
)

// TestConcurrentWrites: writes from many goroutines all land, whole (run with -race to see the
// lock at work).
func TestConcurrentWrites(t *testing.T) {
	var b syncbuf.Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("ab"))
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if got := b.String(); got != strings.Repeat("ab", 800) {
		t.Fatalf("%d bytes written, want 1600", len(got))
	}
}
