package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFindingJSONRoundTrip: a finding read back from its JSON is the finding written, every
// field of its case included (merge rebuilds reports from these).
func TestFindingJSONRoundTrip(t *testing.T) {
	for _, f := range goldenReport().Findings {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var got Finding
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(f, got); d != "" {
			t.Errorf("%s: read back differs (-written +read):\n%s", f.ID, d)
		}
	}
}

// Every format marks a finding whose case was not shrunk, and none marks one that was.
func TestUnshrunkIsMarked(t *testing.T) {
	r := goldenReport()
	for _, format := range []string{"text", "markdown", "junit", "html", "sarif"} {
		for _, shrunk := range []bool{false, true} {
			for i := range r.Findings {
				r.Findings[i].Shrunk = shrunk
			}
			var b strings.Builder
			if err := r.WriteFormat(&b, format, RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(b.String(), "as first drawn"); (n > 0) == shrunk {
				t.Errorf("%s, shrunk %v: %d marks of a case not shrunk", format, shrunk, n)
			}
		}
	}
}
