package harness

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		name      string
		want, got any
		diff      string
	}{
		{"equal", map[string]any{"a": json.Number("1")}, map[string]any{"a": json.Number("1")}, ""},
		{"a string for a number", map[string]any{"limit": json.Number("20"), "path": "a"},
			map[string]any{"limit": "20", "path": "a"},
			"  {\n-   \"limit\": 20,\n+   \"limit\": \"20\",\n    \"path\": \"a\"\n  }\n"},
		{"a key added", map[string]any{"b": true}, map[string]any{"a": nil, "b": true},
			"  {\n+   \"a\": null,\n    \"b\": true\n  }\n"},
		{"scalars equal as JSON numbers", json.Number("1.0"), json.Number("1"), ""},
		{"1.0 and 1 beside a change", map[string]any{"a": json.Number("1.0"), "b": json.Number("1")},
			map[string]any{"a": json.Number("1"), "b": json.Number("2")},
			"  {\n    \"a\": 1.0,\n-   \"b\": 1\n+   \"b\": 2\n  }\n"},
		{"scalars", json.Number("1.5"), json.Number("1"), "- 1.5\n+ 1\n"},
		{"a Go struct", map[string]any{"n": json.Number("1")}, struct {
			N int `json:"n"`
			M int `json:"m"`
		}{1, 0}, "  {\n-   \"n\": 1\n+   \"n\": 1,\n+   \"m\": 0\n  }\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if d := valueDiff(c.want, c.got); d != c.diff {
				t.Errorf("Diff:\n%s\nwant:\n%s", d, c.diff)
			}
			if strings.Contains(valueDiff(c.want, c.got), "map[string]any") {
				t.Error("Go syntax in a JSON diff")
			}
		})
	}
}
