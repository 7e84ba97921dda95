//go:build unix

package tool_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/toolproof/toolproof/validator/tool"
)

// In a directory only regular files are read: a FIFO (which nobody writes), or a symbolic link
// to /dev/zero, is skipped with its reason at once, and the other files are read.
func TestDirectoryReadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.json"),
		[]byte(`{"name":"a","parameters":{"type":"object"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.jsonl")); err != nil {
		t.Fatal(err)
	}
	set, err := tool.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Tools) != 1 || set.Tools[0].Name != "a" {
		t.Fatalf("tools %v", set.Tools)
	}
	want := map[string]string{"fifo.json": "a FIFO", "zero.jsonl": "a character device"}
	for _, s := range set.Skipped {
		w := want[filepath.Base(s.Source)]
		if w == "" || !strings.Contains(s.Reason, w) || !strings.Contains(s.Reason, "not a regular file") {
			t.Errorf("skipped %s: %s", s.Source, s.Reason)
		}
		delete(want, filepath.Base(s.Source))
	}
	if len(want) > 0 {
		t.Errorf("not skipped: %v", want)
	}
	// Named on its own, /dev/zero is read up to the limit, and the error names it.
	if _, err := tool.Load("/dev/zero"); err == nil || !strings.Contains(err.Error(), "tool.MaxFileSize") {
		t.Errorf("/dev/zero: %v", err)
	}
}

// Renaming many tools of one name takes each its own suffix, in one pass.
func TestRenamingManyToolsOfOneName(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	const n = 20000
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"name":"same","parameters":{"type":"object"}}`)
	}
	b.WriteString("]")
	set, err := tool.Parse([]byte(b.String()), "same.json")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range set.Tools {
		names[tl.Name] = true
	}
	if len(names) != n || !names["same"] || !names["same__20000"] || len(set.Renamed) != n-1 {
		t.Fatalf("%d names, %d renamed", len(names), len(set.Renamed))
	}
}

// Invalid UTF-8 and a repeated key, which encoding/json reads without a word, are errors that
// name the file, the line, the column and the place.
func TestInvalidUTF8AndDuplicateKeysAreNamed(t *testing.T) {
	for name, c := range map[string]struct{ text, want string }{
		"utf8": {"[{\"name\":\"a\",\"parameters\":{\"type\":\"object\"," +
			"\"properties\":{\"x\":{\"pattern\":\"^\xff$\"}}}}]",
			"t.json:1:74: at /0/parameters/properties/x/pattern: invalid UTF-8"},
		"dup": {"[{\"name\":\"a\",\"parameters\":{\"type\":\"object\",\n\"properties\":{\"x\":{},\"x\":{}}}}]",
			"t.json:2:22: at /0/parameters/properties/x: a key repeated"},
		"jsonl": {"{\"name\":\"a\",\"parameters\":{}}\n{\"name\":\"b\",\"name\":\"c\",\"parameters\":{}}\n",
			"t.json:2:13: at /name: a key repeated"},
		"lone surrogate": {`[{"name":"a","parameters":{"type":"object","properties":{"\ud83dx":{}}}}]`,
			`t.json:1:59: \ud83d: a lone surrogate`},
		"lone low surrogate, JSON Lines": {"{\"name\":\"a\",\"parameters\":{}}\n{\"name\":\"b\\\\\\udc00\"," +
			"\"parameters\":{}}\n",
			`t.json:2:13: \udc00: a lone surrogate`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := tool.Parse([]byte(c.text), "t.json")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// A surrogate pair, and an escaped backslash before text that reads like an escape, are text a
// tool file may hold.
func TestSurrogatePairsAreRead(t *testing.T) {
	set, err := tool.Parse([]byte(`{"name":"a\ud83d\ude00","description":"\\ud800","parameters":{}}`), "t.json")
	if err != nil || len(set.Tools) != 1 || set.Tools[0].Name != "a😀" {
		t.Fatalf("got %+v, %v", set.Tools, err)
	}
}
