package bundle_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolproof/toolproof/internal/bundle"
)

func parts(adapter string) []bundle.Part {
	return []bundle.Part{
		{Dir: "validator/node", Files: fstest.MapFS{
			"adapters/a.mjs":    {Data: []byte(adapter)},
			"package.json":      {Data: []byte(`{"dependencies": {"zod": "4.6.7", "ajv": "8.20.0"}}`)},
			"package-lock.json": {Data: []byte(`{}`)},
		}},
		{Dir: "validator/python", Files: fstest.MapFS{"x_adapter.py": {Data: []byte("print(1)\n")}}},
	}
}

func TestDirUnpacksByContent(t *testing.T) {
	root := t.TempDir()
	c := &bundle.Cache{Root: root, Parts: parts("v1")}
	dir, err := c.Dir()
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := c.Hash()
	if dir != filepath.Join(root, sum) {
		t.Errorf("Dir %s, want %s", dir, filepath.Join(root, sum))
	}
	for name, want := range map[string]string{"validator/node/adapters/a.mjs": "v1",
		"validator/python/x_adapter.py": "print(1)\n"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	// Another content is another folder: an upgrade never runs the old files.
	c2 := &bundle.Cache{Root: root, Parts: parts("v2")}
	dir2, err := c2.Dir()
	if err != nil {
		t.Fatal(err)
	}
	if dir2 == dir {
		t.Fatalf("two contents share the folder %s", dir)
	}
	if got, _ := os.ReadFile(filepath.Join(dir2, "validator", "node", "adapters", "a.mjs")); string(got) != "v2" {
		t.Errorf("the new folder holds %q, want v2", got)
	}
	// The same content again is the same folder, not written again.
	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := c.Dir(); err != nil || again != dir {
		t.Fatalf("Dir again: %s, %v; want %s", again, err, dir)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("Dir rewrote a complete folder: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(root, ".unpack-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary folders left: %v", leftovers)
	}
}

func TestDirConcurrent(t *testing.T) {
	root := t.TempDir()
	var wg sync.WaitGroup
	dirs := make([]string, 8)
	errs := make([]error, 8)
	for i := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dirs[i], errs[i] = (&bundle.Cache{Root: root, Parts: parts("same")}).Dir()
		}()
	}
	wg.Wait()
	for i := range dirs {
		if errs[i] != nil || dirs[i] != dirs[0] {
			t.Fatalf("run %d: %s, %v; run 0: %s", i, dirs[i], errs[i], dirs[0])
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dirs[0], "validator", "node", "adapters", "a.mjs")); string(got) != "same" {
		t.Errorf("after concurrent unpacking: %q", got)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("the cache holds %d entries, want the one folder", len(entries))
	}
}

func TestPrune(t *testing.T) {
	root := t.TempDir()
	old := filepath.Join(root, "0123456789abcdef")
	recent := filepath.Join(root, "fedcba9876543210")
	other := filepath.Join(root, "zoo")
	for _, d := range []string{old, recent, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-40 * 24 * time.Hour)
	for _, d := range []string{old, other} {
		if err := os.Chtimes(d, long, long); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := (&bundle.Cache{Root: root, Parts: parts("new")}).Dir(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("a folder unused for 40 days was kept")
	}
	for _, d := range []string{recent, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

// fakeNPM writes an npm that logs its arguments to calls and then runs script.
func fakeNPM(t *testing.T, script string) (npm, calls string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	dir := t.TempDir()
	calls = filepath.Join(dir, "calls")
	npm = filepath.Join(dir, "npm")
	body := "#!/bin/sh\necho \"$PWD $*\" >> '" + calls + "'\n" + script + "\n"
	if err := os.WriteFile(npm, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return npm, calls
}

func TestInstalled(t *testing.T) {
	npm, calls := fakeNPM(t,
		`test -f package-lock.json || exit 9; mkdir -p node_modules/zod && echo '{}' > node_modules/zod/package.json`)
	var progress bytes.Buffer
	c := &bundle.Cache{Root: t.TempDir(), Parts: parts("v1"), NPM: npm, Progress: &progress}
	dir, err := c.Installed("validator/node", "ajv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "zod", "package.json")); err != nil {
		t.Fatalf("node_modules not in place: %v", err)
	}
	line := progress.String()
	for _, w := range []string{"installing ajv and zod for ajv with npm ci into " + dir, "once"} {
		if !strings.Contains(line, w) {
			t.Errorf("progress line %q does not say %q", line, w)
		}
	}
	if _, err := c.Installed("validator/node", "ajv"); err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(calls)
	if n := strings.Count(string(log), "\n"); n != 1 {
		t.Errorf("npm ran %d times, want once:\n%s", n, log)
	}
	if !strings.Contains(string(log), " ci ") || !strings.Contains(string(log), "--ignore-scripts") {
		t.Errorf("npm was called as %q, want npm ci --ignore-scripts", log)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".npm-*")); len(leftovers) != 0 {
		t.Errorf("temporary folders left: %v", leftovers)
	}
}

func TestInstalledErrors(t *testing.T) {
	failing, _ := fakeNPM(t, `echo "npm error 404 Not Found - GET https://registry.example/zod" >&2; exit 1`)
	c := &bundle.Cache{Root: t.TempDir(), Parts: parts("v1"), NPM: failing}
	_, err := c.Installed("validator/node", "zod")
	if err == nil {
		t.Fatal("a failing npm ci gave no error")
	}
	for _, w := range []string{"validator zod", "`npm ci` of ajv and zod", "exit status 1", "404 Not Found",
		"npm config get registry"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	dir, _ := c.Dir()
	if _, err := os.Stat(filepath.Join(dir, "validator", "node", "node_modules")); err == nil {
		t.Error("a failed install left node_modules in place")
	}

	t.Setenv("PATH", t.TempDir())
	c = &bundle.Cache{Root: t.TempDir(), Parts: parts("v1")}
	_, err = c.Installed("validator/node", "ajv")
	if err == nil {
		t.Fatal("no npm on PATH gave no error")
	}
	for _, w := range []string{"validator ajv needs ajv and zod", "npm is not on PATH", "install Node.js", "npm ci"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}
