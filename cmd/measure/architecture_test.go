package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's root, seen from this package.
const repoRoot = "../.."

// TestArchitectureListsEveryPackage holds docs/architecture.md's tree of packages to the code:
// every folder with a Go package, in the main module and in the nested ones, is an entry of the
// tree, and every entry is a folder that exists.
func TestArchitectureListsEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs/architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := treeEntries(string(doc))
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	pkgs, err := packageDirs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 30 || !slices.Contains(pkgs, "harness/report") ||
		!slices.Contains(pkgs, "validator/zoo/internal/impls") {
		t.Fatalf("the walk found too few packages: %q", pkgs)
	}
	for _, p := range pkgs {
		if !slices.Contains(entries, p) {
			t.Errorf("docs/architecture.md's tree of packages has no entry for %s/", p)
		}
	}
	for _, e := range entries {
		if fi, err := os.Stat(filepath.Join(repoRoot, e)); err != nil || !fi.IsDir() {
			t.Errorf("docs/architecture.md's tree lists %s/, which is no folder", e)
		}
	}
}

// TestArchitectureNamesTheDependencies: docs/architecture.md names each direct requirement of
// the main module's go.mod.
func TestArchitectureNamesTheDependencies(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs/architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	deps := directRequires(string(mod))
	if len(deps) == 0 {
		t.Fatal("go.mod has no direct requirement")
	}
	for _, d := range deps {
		if !strings.Contains(string(doc), d) {
			t.Errorf("docs/architecture.md does not name the main module's dependency %s", d)
		}
	}
}

// directRequires are the module paths go.mod requires, less those marked // indirect.
func directRequires(mod string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(mod, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			in = true
			continue
		case line == ")":
			in = false
		}
		one, single := strings.CutPrefix(line, "require ")
		if !in && !single {
			continue
		}
		if f := strings.Fields(one); len(f) >= 2 && !strings.Contains(one, "// indirect") {
			out = append(out, f[0])
		}
	}
	return out
}

// treeEntry is one line of the tree that names a folder: its indentation (two spaces a level)
// and the folder, a path ending in "/" followed by two spaces or the end of the line.
var treeEntry = regexp.MustCompile(`^( *)([a-z0-9_.-]+(?:/[a-z0-9_.-]+)*)/(?:  |$)`)

// treeEntries reads the first code block after "## The packages" and returns the folder each
// entry names, its parents' paths before it.
func treeEntries(doc string) ([]string, error) {
	_, after, ok := strings.Cut(doc, "## The packages")
	if !ok {
		return nil, fmt.Errorf(`no "## The packages" section`)
	}
	_, after, ok = strings.Cut(after, "```\n")
	block, _, closed := strings.Cut(after, "```")
	if !ok || !closed {
		return nil, fmt.Errorf(`no code block under "## The packages"`)
	}
	var out, parents []string
	for n, line := range strings.Split(block, "\n") {
		m := treeEntry.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		depth := len(m[1]) / 2
		if len(m[1])%2 != 0 || depth > len(parents) {
			return nil, fmt.Errorf("line %d of the tree (%q) is not indented two spaces under its parent", n+1, line)
		}
		parents = append(parents[:depth], m[2])
		out = append(out, strings.Join(parents, "/"))
	}
	return out, nil
}

// packageDirs are the folders under root, relative and with slashes, that hold a Go file other
// than a test (testdata, node_modules and hidden folders aside).
func packageDirs(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") ||
				strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); !slices.Contains(out, rel) {
				out = append(out, rel)
			}
		}
		return nil
	})
	return out, err
}
