package registry_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator/registry"
)

// zooNames are the entries Listed leaves out when the zoo cannot run.
func zooNames() []string {
	var names []string
	for _, e := range registry.Entries() {
		if e.Kind == "go-zoo" {
			names = append(names, e.Name)
		}
	}
	return names
}

func listedNames(o *registry.Opener) (map[string]bool, []string) {
	entries, missing := o.Listed()
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name] = true
	}
	return names, missing
}

// TestListedZooOnlyWhereItRuns: an install with no checkout and no zoo in its cache (the npm
// package, go install) does not list the zoo and says how to get it; a checkout or an installed zoo lists it.
func TestListedZooOnlyWhereItRuns(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	cache := t.TempDir()
	const version = "v0.0.0-20261202003937-fa846b9a1b2c"
	for _, tc := range []struct {
		label string
		o     *registry.Opener
		zoo   bool
	}{
		{"the npm package (a release, no zoo installed)", &registry.Opener{Cache: cache, Version: "v0.4.0"}, false},
		{"a build from a clone, no TOOLPROOF_ROOT",
			&registry.Opener{Cache: cache, Version: "devel-fa846b9a1b2c"}, false},
		{"go install at a pseudo-version, no zoo installed", &registry.Opener{Cache: cache, Version: version}, false},
		{"TOOLPROOF_ROOT", &registry.Opener{Cache: cache, Version: "devel-fa846b9a1b2c", Root: "/some/checkout"}, true},
	} {
		names, missing := listedNames(tc.o)
		for _, z := range zooNames() {
			if names[z] != tc.zoo {
				t.Errorf("%s: %s listed %v, want %v", tc.label, z, names[z], tc.zoo)
			}
		}
		if !names["reference"] || !names["ajv"] {
			t.Errorf("%s: reference or ajv not listed: %v", tc.label, names)
		}
		if tc.zoo != (len(missing) == 0) {
			t.Errorf("%s: missing %q", tc.label, missing)
		}
		if !tc.zoo &&
			(len(missing) != 1 || !strings.Contains(missing[0], "TOOLPROOF_ROOT") ||
				!strings.Contains(missing[0], "json-struct")) {
			t.Errorf("%s: the line for the zoo names neither it nor TOOLPROOF_ROOT: %q", tc.label, missing)
		}
	}
	exe := "toolproof-zoo"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	dir := filepath.Join(cache, "zoo", "fa846b9a1b2c")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, exe), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	names, missing := listedNames(&registry.Opener{Cache: cache, Version: version})
	if !names["json-struct"] || len(missing) != 0 {
		t.Errorf("with the zoo installed in the cache: json-struct listed %v, missing %q",
			names["json-struct"], missing)
	}
}
