package tool_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/validator/tool"
)

// A tool file an editor saved with a UTF-8 byte order mark reads as the same file without it,
// and its places are where they are without the mark.
func TestByteOrderMark(t *testing.T) {
	for _, body := range []string{
		"{\"name\": \"read\",\n \"parameters\": {\"type\": \"object\", \"properties\": {\"path\": {\"type\": " +
			"\"string\"}}}}\n",
		// JSON Lines: one definition a line
		"{\"name\": \"list\", \"parameters\": {\"type\": \"object\"}}\n{\"name\": \"read\", \"parameters\": {}}\n",
	} {
		path := filepath.Join(t.TempDir(), "tools.json")
		if err := os.WriteFile(path, []byte("\ufeff"+body), 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := tool.Load(path)
		if err != nil {
			t.Fatalf("a file with a byte order mark: %v", err)
		}
		plain, err := tool.Parse([]byte(body), path)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(plain.Tools, set.Tools); diff != "" {
			t.Errorf("the tools of a file with a byte order mark differ (-without +with):\n%s", diff)
		}
		var spots []tool.Spot
		for _, tl := range set.Tools {
			spots = append(spots, tool.Spot{Source: tl.Source, Name: true}, tool.Spot{Source: tl.Source})
		}
		got := tool.LocateAll([]byte("\ufeff"+body), spots)
		want := tool.LocateAll([]byte(body), spots)
		if diff := cmp.Diff(want, got); diff != "" || got[0].Line != 1 {
			t.Errorf("places in a file with a byte order mark (-without +with):\n%s%v", diff, got)
		}
		if l, c, ok := tool.Locate([]byte("\ufeff"+body), set.Tools[0].Name); !ok || l != 1 || c != 2 {
			t.Errorf("Locate %s: %d:%d %v, want 1:2", set.Tools[0].Name, l, c, ok)
		}
	}
}
