package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolproof/toolproof/validator/tool"
)

// TestServedFromNodeModulesNamesThePackage: a tool an npm-installed server lists (its command
// node_modules/.bin/NAME, a link into the package) is named by the package, with no place in
// the package's files; a server of the user's own is located in its file.
func TestServedFromNodeModulesNamesThePackage(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "node_modules", "@acme", "server-files", "dist")
	bin := filepath.Join(dir, "node_modules", ".bin")
	own := filepath.Join(dir, "server.js")
	for _, d := range []string{pkg, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := []byte("server.tool(\n  \"read_file\", {})\n")
	for _, f := range []string{filepath.Join(pkg, "index.js"), own} {
		if err := os.WriteFile(f, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join("..", "@acme", "server-files", "dist", "index.js"),
		filepath.Join(bin, "server-files")); err != nil {
		t.Fatal(err)
	}
	read := func(p string) []byte { b, _ := os.ReadFile(p); return b }
	tl := tool.Tool{Name: "read_file"}
	got := sourceOf(tl, "mcp:"+filepath.Join(bin, "server-files"), read)
	if got.File != "" || got.Package != "@acme/server-files" {
		t.Errorf("npm-installed server: source %+v, want package @acme/server-files and no file", got)
	}
	if got := sourceOf(tl, "mcp:node "+own, read); got.Package != "" || got.Line != 2 {
		t.Errorf("own server: source %+v, want its file at line 2", got)
	}
}
