package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolproof/toolproof/internal/atomicfile"
)

// A write replaces the file whole and leaves no temporary file; a write that cannot be made
// leaves the old content.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := atomicfile.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.WriteFile(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("content %q, want new", b)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("the directory holds %d entries, want the file alone", len(es))
	}
	if os.Getuid() == 0 {
		return // root writes into a read-only directory
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	if err := atomicfile.WriteFile(path, []byte("lost"), 0o644); err == nil {
		t.Error("a write into a read-only directory succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("after a failed write the file holds %q, want the old content", b)
	}
}
