package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// TestHTTP500WithJSONRPCError: a server that answers tools/call with a JSON-RPC error on an HTTP
// 500 threw: every valid call is a gate_error showing the answer, and every distorted call an
// unclear answer, never a finding.
func TestHTTP500WithJSONRPCError(t *testing.T) {
	fake := fakeserver.NewHTTP("correct", fakeserver.HTTPOptions{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &m) == nil && m.Method == "tools/call" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) +
				`,"error":{"code":-32000,"message":"database is down"}}`))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		fake.ServeHTTP(w, r)
	})
	c, err := mcp.StartHandler(h, mcp.Options{Stderr: &syncBuffer{}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	g, err := c.Compile(fakeserver.Tools[0])
	if err != nil {
		t.Fatal(err)
	}
	v := g.Check(context.Background(), []byte(`{"hour":1,"label":"a"}`))
	if !v.Unclear || v.ErrorAnswer != validator.Threw ||
		!strings.Contains(v.Detail, "-32000 (HTTP 500): database is down") {
		t.Fatalf("verdict %+v", v)
	}
	rep, err := harness.Run(fakeserver.Tools[:1], c, harness.Options{Checks: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Class != "valid" || f.Kind != report.GateError || !strings.Contains(f.Detail, "database is down") {
			t.Errorf("finding %v %s: want only the valid cases' gate_error", f, f.Detail)
		}
	}
	if len(rep.Findings) == 0 || rep.Classes["hallucinated_key"] == nil ||
		rep.Classes["hallucinated_key"].Unclear == 0 {
		t.Errorf("findings %v, classes %v", rep.Findings, rep.Classes)
	}
}
