package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/toolproof/toolproof/harness/report"
)

// stderrLog takes what validators and MCP servers write to stderr: toolproof's own lines (its notes
// and its adapters', each beginning "toolproof") go on to stderr, escaped; every other line goes to a file,
// created on the first such line and named on stderr once.
type stderrLog struct {
	mu      sync.Mutex
	stderr  io.Writer
	dir     string // where the file is created ("": the temporary folder)
	file    *os.File
	path    string
	lines   int
	partial []byte
	err     error // the file could not be created: lines pass through
}

func newStderrLog(stderr io.Writer, dir string) *stderrLog {
	return &stderrLog{stderr: stderr, dir: dir}
}

// Write routes every whole line of p; a line without its newline waits for the rest.
func (l *stderrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.partial = append(l.partial, p...)
			break
		}
		line := append(l.partial, p[:i+1]...)
		l.partial = nil
		l.route(line)
		p = p[i+1:]
	}
	return n, nil
}

// route writes one line, with its newline, where it belongs.
func (l *stderrLog) route(line []byte) {
	if toolproofLine(string(line)) || l.err != nil {
		l.show(line)
		return
	}
	if l.file == nil {
		l.file, l.err = os.CreateTemp(l.dir, "toolproof-stderr-*.log")
		if l.err != nil {
			fmt.Fprintf(l.stderr, "toolproof: the validator's stderr passes through (no file for it: %v)\n", l.err)
			l.show(line)
			return
		}
		l.path = l.file.Name()
		fmt.Fprintf(l.stderr,
			"toolproof: the validator's stderr goes to %s (--validator-stderr=pass shows it here)\n", l.path)
	}
	l.lines++
	l.file.Write(line)
}

// toolproofLine says whether a line of a validator's stderr is toolproof's own (its notes and
// its adapters'), which the user is shown as it comes.
func toolproofLine(line string) bool {
	return strings.HasPrefix(line, "toolproof:") || strings.HasPrefix(line, "toolproof ")
}

// show writes one line to stderr with its control characters escaped (report.EscapeLine): a line
// that begins "toolproof" may still come from the validator, and an ESC in it must not reach the
// terminal.
func (l *stderrLog) show(line []byte) {
	io.WriteString(l.stderr, report.EscapeLine(strings.TrimSuffix(string(line), "\n"))+"\n")
}

// Captured is the file the lines went to and how many there were ("" and 0 when none did, or l is nil).
func (l *stderrLog) Captured() (string, int) {
	if l == nil {
		return "", 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.path, l.lines
}

// Close routes the last line without its newline and closes the file.
func (l *stderrLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.partial) > 0 {
		l.route(append(l.partial, '\n'))
		l.partial = nil
	}
	if l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file = nil
	l.err = os.ErrClosed // what comes after Close passes through
	return err
}
