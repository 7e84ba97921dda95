package registry_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The scratch project of scripts/e2e-install (testdata/e2e/project) installs the frameworks and
// Node.js exactly as examples/frameworks does, so that the installed toolproof is checked on the
// versions docs/frameworks.md measures: the same dependencies, the same locked tree.
func TestE2EProjectPinsTheFrameworks(t *testing.T) {
	type manifest struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	type lock struct {
		Packages map[string]json.RawMessage `json:"packages"`
	}
	read := func(rel string, v any) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root(t), rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}
	var em, pm manifest
	read("examples/frameworks/package.json", &em)
	read("testdata/e2e/project/package.json", &pm)
	if diff := cmp.Diff(em, pm); diff != "" {
		t.Errorf("testdata/e2e/project/package.json pins other packages than examples/frameworks (-examples "+
			"+project):\n%s", diff)
	}
	var el, pl lock
	read("examples/frameworks/package-lock.json", &el)
	read("testdata/e2e/project/package-lock.json", &pl)
	delete(el.Packages, "")
	delete(pl.Packages, "")
	if len(el.Packages) == 0 {
		t.Fatal("examples/frameworks/package-lock.json locks no package")
	}
	for name, want := range el.Packages {
		if got, ok := pl.Packages[name]; !ok || !jsonEqual(t, got, want) {
			t.Errorf("testdata/e2e/project/package-lock.json: %s is %s, examples/frameworks locks %s (copy that "+
				"lockfile, then npm install --package-lock-only)", name, got, want)
		}
	}
	if len(pl.Packages) != len(el.Packages) {
		t.Errorf("testdata/e2e/project/package-lock.json locks %d packages, examples/frameworks %d",
			len(pl.Packages), len(el.Packages))
	}
}

func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return cmp.Equal(x, y)
}
