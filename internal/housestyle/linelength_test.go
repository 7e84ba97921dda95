package housestyle

import (
	"bufio"
	"bytes"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxColumns is the house limit on a line of Go, a tab counting as tabWidth columns.
const (
	maxColumns = 120
	tabWidth   = 4
)

// TestLineLength fails naming file:line for every line of a tracked Go file over maxColumns
// columns, outside an example's output comment and raw strings of several lines.
func TestLineLength(t *testing.T) {
	root := repositoryRoot(t)
	files := goFiles(t, root)
	if len(files) == 0 {
		t.Fatalf("no Go files found under %s", root)
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, l := range longLines(data) {
			t.Errorf("%s:%d: %d columns, over %d (a tab counts as %d): break it after a comma or an operator, "+
				"or split the string or comment", f, l.number, l.columns, maxColumns, tabWidth)
		}
	}
}

// TestLongLines: the columns count a tab to the next multiple of 4 and a character as one, and the
// lines of an example's output comment, which must match the output verbatim, are not counted.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("x", 117)
	src := strings.Join([]string{
		"\t" + long[:116],        // 120 columns
		"\t" + long,              // 121
		"a\t" + long[:115],       // a tab after one column reaches 4: 119
		strings.Repeat("é", 121), // 121 characters, 242 bytes
		"func ExampleX() {",
		"\t// Output:",
		"\t// " + long, // inside the output comment
		"}",
		"// " + long,       // a comment like any other: 120
		"// " + long + "x", // 121
		"var data = `",
		long + long, // inside a raw string of several lines: data
		"`",
		"var one = `" + long + "`", // a raw string on one line is code: 133
	}, "\n")
	var got []line
	got = append(got, longLines([]byte(src))...)
	want := []line{{2, 121}, {4, 121}, {10, 121}, {14, 129}}
	if len(got) != len(want) {
		t.Fatalf("long lines %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("long line %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// line is a line over the limit: its number from 1 and its width in columns.
type line struct {
	number, columns int
}

// longLines returns the lines of src wider than maxColumns, outside the comment that follows an
// example's "// Output:" or "// Unordered output:" line and outside raw string literals of
// several lines (data written as it is read: a tool file, a script, a report).
func longLines(src []byte) []line {
	var out []line
	data := rawStringLines(src)
	inOutput := false
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if trimmed == "// Output:" || trimmed == "// Unordered output:" {
			inOutput = true
			continue
		}
		if inOutput && strings.HasPrefix(trimmed, "//") {
			continue
		}
		inOutput = false
		if c := columns(text); c > maxColumns && !data[n] {
			out = append(out, line{n, c})
		}
	}
	return out
}

// columns is the width of s with a tab reaching the next multiple of tabWidth.
func columns(s string) int {
	c := 0
	for _, r := range s {
		if r == '\t' {
			c = (c/tabWidth + 1) * tabWidth
		} else {
			c++
		}
	}
	return c
}

// repositoryRoot is the directory above this package that holds the main module's go.mod.
func repositoryRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !bytes.HasPrefix(mod, []byte("module github.com/toolproof/toolproof\n")) {
		t.Fatalf("%s is not the root of the main module (its go.mod: %v)", dir, err)
	}
	return dir
}

// goFiles lists the Go files under root, slash-separated from root: those git tracks (and that
// exist), or, where git or the repository is missing, those a walk finds outside node_modules and
// hidden or ignored directories.
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--", "*.go")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		var files []string
		for _, f := range strings.Split(string(out), "\x00") {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); f != "" && err == nil {
				files = append(files, f)
			}
		}
		return files
	}
	return walkGoFiles(t, root)
}

// walkGoFiles lists the Go files under root a walk finds, leaving out node_modules, hidden
// directories and the caches under testdata/rapid.
func walkGoFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (name == "node_modules" || strings.HasPrefix(name, ".") || name == "rapid") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".go") {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("listing the Go files under %s: %v", root, err)
	}
	return files
}

// rawStringLines are the lines (from 1) of src that a raw string literal of several lines
// spans, its first and last included.
func rawStringLines(src []byte) map[int]bool {
	fs := token.NewFileSet()
	f := fs.AddFile("src.go", -1, len(src))
	var sc scanner.Scanner
	sc.Init(f, src, func(token.Position, string) {}, 0)
	out := map[int]bool{}
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.STRING || !strings.HasPrefix(lit, "`") || !strings.Contains(lit, "\n") {
			continue
		}
		first := f.Line(pos)
		for n := first; n <= first+strings.Count(lit, "\n"); n++ {
			out[n] = true
		}
	}
}
