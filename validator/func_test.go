package validator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// readArgs is what a Go handler decodes the read tool's arguments into.
type readArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty"`
	Limit  int32  `json:"limit,omitempty"`
}

// TestFuncPassesOnGoValues: a check may pass on any Go value encoding/json marshals (a struct,
// a typed map, a float32), judged as its JSON encoding; a value with no encoding is a
// protocol_error naming its type.
func TestFuncPassesOnGoValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		pass any
		want any
	}{
		{"struct", readArgs{Path: "a.go", Limit: 20}, map[string]any{"path": "a.go", "limit": json.Number("20")}},
		{"pointer to struct", &readArgs{Path: "b"}, map[string]any{"path": "b"}},
		{"typed map", map[string]int{"limit": 3}, map[string]any{"limit": json.Number("3")}},
		{"nested", map[string]any{"tags": []int{1, 2}},
			map[string]any{"tags": []any{json.Number("1"), json.Number("2")}}},
		{"JSON value", map[string]any{"path": "c"}, map[string]any{"path": "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := check(t, func([]byte) (any, error) { return tc.pass, nil })
			if !v.Valid || !v.HasValue || v.Fault != "" {
				t.Fatalf("verdict %+v", v)
			}
			if d := cmp.Diff(tc.want, v.Value); d != "" {
				t.Errorf("value passed on (-want +got):\n%s", d)
			}
		})
	}
	v := check(t, func([]byte) (any, error) { return map[string]any{"c": make(chan int)}, nil })
	if v.Fault != validator.ProtocolError || !strings.Contains(v.Detail, "map[string]interface {}") {
		t.Errorf("a value with no JSON encoding: %+v", v)
	}
}

// TestFuncNotSent: a *NotSentError (wrapped or not) makes the case not applicable, not a
// rejection.
func TestFuncNotSent(t *testing.T) {
	v := check(t, func([]byte) (any, error) {
		return nil, fmt.Errorf("transport: %w", &validator.NotSentError{Why: "the SDK takes a JSON object"})
	})
	if !v.NotSent || v.Detail != "the SDK takes a JSON object" || v.Valid || len(v.Issues) != 0 {
		t.Errorf("verdict %+v", v)
	}
}

func check(t *testing.T, f func([]byte) (any, error)) validator.Verdict {
	t.Helper()
	g, err := validator.Func("go", func(tool.Tool) (func([]byte) (any, error), error) { return f, nil }).Compile(read)
	if err != nil {
		t.Fatal(err)
	}
	return g.Check(context.Background(), []byte(`{"path":"a.go"}`))
}
