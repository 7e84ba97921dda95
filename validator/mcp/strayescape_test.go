package mcp_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// hostileEvent is an event whose data is text, not JSON, that would clear the screen, open a
// hyperlink and reverse the line in a terminal.
const hostileEvent = "data: \x1b[2Jcleared \x1b]8;;http://x\x07link\x1b]8;;\x07 \u202eesrever\n\n"

// strayEvents prefixes hostileEvent to every event stream the fake answers with.
type strayEvents struct{ fake http.Handler }

func (s strayEvents) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	s.fake.ServeHTTP(rec, r)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		w.Write([]byte(hostileEvent))
	}
	w.Write(rec.Body.Bytes())
}

// TestStrayEventNoteIsEscaped: the stderr note for an event that is not JSON quotes the event
// with its control characters and bidirectional overrides escaped; no raw ESC, BEL or U+202E
// reaches the terminal, and the calls are still answered.
func TestStrayEventNoteIsEscaped(t *testing.T) {
	stderr := &syncBuffer{}
	c, err := mcp.StartHandler(strayEvents{fakeserver.NewHTTP("correct", fakeserver.HTTPOptions{SSE: true})},
		mcp.Options{Stderr: stderr, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	rep, err := harness.Run(fakeserver.Tools[:1], c, harness.Options{Checks: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases == 0 {
		t.Fatalf("no case checked: %+v", rep)
	}
	out := stderr.String()
	if !strings.Contains(out, `(an event that is not JSON): \u001B[2Jcleared \u001B]8;;http://x\u0007link`) {
		t.Errorf("no escaped note of the event:\n%q", out)
	}
	if i := strings.IndexFunc(out, func(r rune) bool {
		return (unicode.IsControl(r) && r != '\n') || r == '\u202e'
	}); i >= 0 {
		t.Errorf("a raw control character at byte %d of stderr:\n%q", i, out)
	}
	if bytes.Contains([]byte(out), []byte{0x1b}) {
		t.Errorf("a raw ESC on stderr")
	}
}
