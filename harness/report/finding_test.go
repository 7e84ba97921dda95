package report

import (
	"encoding/json"
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
