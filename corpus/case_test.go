package corpus_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/corpus"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cs := []corpus.Case{
		{Tool: "../../etc/passwd", Args: []byte(`{"limit":"20"}`), Expect: "reject", Class: "stringified_type",
			Path: "/limit", Keyword: "type", Original: []byte(`{"limit":20}`)},
		{Tool: "read", Args: []byte("{\"p\":\"\xff\"}"), Expect: "reject", Class: "malformed_json"},
		{Tool: "read", Args: []byte(`{"path":"a"}`), Expect: "accept", Class: "valid"},
	}
	for i := range cs {
		cs[i] = cs[i].Seal()
		path, err := corpus.Save(dir, cs[i])
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(path) != dir || filepath.Base(path) != cs[i].ID+".json" {
			t.Fatalf("saved at %s", path)
		}
	}
	got, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]corpus.Case{}
	for _, c := range got {
		byID[c.ID] = c
	}
	for _, c := range cs {
		if diff := cmp.Diff(c, byID[c.ID]); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d files left in dir, want 3 (no temporary files)", len(entries))
	}
}

func TestStableID(t *testing.T) {
	a := corpus.ComputeID("read", "valid", "accept", []byte(`{"path":"a"}`))
	if a != corpus.ComputeID("read", "valid", "accept", []byte(`{"path":"a"}`)) ||
		a == corpus.ComputeID("read", "valid", "accept", []byte(`{"path":"b"}`)) {
		t.Fatal("id is not a content hash")
	}
}

func TestLoadErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "broken.json"), []byte(`{"id":`), 0o644)
	_, err := corpus.Load(dir)
	if err == nil || !strings.Contains(err.Error(), "broken.json") {
		t.Fatalf("err = %v", err)
	}
	os.Remove(filepath.Join(dir, "broken.json"))
	c := corpus.Case{Tool: "t", Args: []byte(`{}`), Expect: "accept", Class: "valid"}.Seal()
	c.Args = []byte(`{"tampered":1}`)
	if _, err := corpus.Save(dir, c); err == nil {
		t.Fatal("saved a case whose id does not match")
	}
	if cs, err := corpus.Load(filepath.Join(dir, "missing")); err != nil || cs != nil {
		t.Fatalf("missing dir: %v %v", cs, err)
	}
}
