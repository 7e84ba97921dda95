package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// sized is a function or a file with its length in lines.
type sized struct {
	name  string
	lines int
}

// size counts, in the Go module at root (zoo, examples, nested modules, testdata and tests
// aside), the functions over 60 lines and the files over 500 lines, longest first.
func size(root string, stdout io.Writer) error {
	var funcs, files []sized
	total := 0
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if skipDir(path, rel, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fns, lines, err := sizeFile(fset, path, rel)
		if err != nil {
			return err
		}
		total += fns.total
		funcs = append(funcs, fns.long...)
		if lines > 500 {
			files = append(files, sized{rel, lines})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range [][]sized{funcs, files} {
		sort.SliceStable(s, func(i, j int) bool { return s[i].lines > s[j].lines })
	}
	fmt.Fprintf(stdout, "non-test functions: %d; over 60 lines: %d\n", total, len(funcs))
	for _, f := range funcs {
		fmt.Fprintf(stdout, "  %4d %s\n", f.lines, f.name)
	}
	fmt.Fprintf(stdout, "non-test files over 500 lines: %d\n", len(files))
	for _, f := range files {
		fmt.Fprintf(stdout, "  %4d %s\n", f.lines, f.name)
	}
	return nil
}

// skipDir leaves out zoo and examples, nested modules, testdata, node_modules and hidden folders.
func skipDir(path, rel, name string) bool {
	if rel == "." {
		return false
	}
	if rel == "validator/zoo" || rel == "examples" || name == "testdata" || name == "node_modules" ||
		strings.HasPrefix(name, ".") {
		return true
	}
	_, err := os.Stat(filepath.Join(path, "go.mod"))
	return err == nil
}

// fileFuncs is the number of functions of a file and those over 60 lines.
type fileFuncs struct {
	total int
	long  []sized
}

func sizeFile(fset *token.FileSet, path, rel string) (fileFuncs, int, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return fileFuncs{}, 0, err
	}
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return fileFuncs{}, 0, err
	}
	lines := 0
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, len(src)+1)
	for sc.Scan() {
		lines++
	}
	var out fileFuncs
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		out.total++
		if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > 60 {
			out.long = append(out.long, sized{rel + ":" + funcName(fd), n})
		}
	}
	return out, lines, nil
}

// funcName is NAME, or TYPE.NAME for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
