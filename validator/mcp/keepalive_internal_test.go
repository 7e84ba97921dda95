package mcp

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestSSEKeepAlivesSayNothing: empty events on an event stream (a comment alone, an event with no
// data line, data lines with nothing in them), as servers send to keep a connection open, are
// skipped without a note; an event whose data is text but not JSON still gets one; the answer is read.
func TestSSEKeepAlivesSayNothing(t *testing.T) {
	answer := `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`
	for _, tc := range []struct {
		label, stream string
		note          bool
	}{
		{"a comment", ": keep-alive\n\n", false},
		{"an event with no data", "event: ping\n\n", false},
		{"an empty data line", "data:\n\n", false},
		{"data lines of spaces", "data: \ndata:  \n\n", false},
		{"text that is not JSON", "data: hello\n\n", true},
	} {
		var stderr bytes.Buffer
		h := newHTTPLink(&Client{opts: Options{URL: "http://127.0.0.1:1/mcp", Stderr: &stderr}, scrub: newRedactor(nil),
			httpClient: http.DefaultClient})
		body := strings.NewReader(tc.stream + tc.stream + "event: message\ndata: " + answer + "\n\n")
		ans, err := h.readSSE(context.Background(), body, request{id: 1, method: "tools/call"}, "200 OK")
		if err != nil || ans.Result == nil {
			t.Fatalf("%s: no answer read: %v, %+v", tc.label, err, ans)
		}
		said := strings.Contains(stderr.String(), "(an event that is not JSON)")
		if said != tc.note {
			t.Errorf("%s: a note %v, want %v: %q", tc.label, said, tc.note, stderr.String())
		}
	}
}
