package fakeserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Serve answers MCP requests read from in on out until in ends.
func Serve(mode string, in io.Reader, out io.Writer) error {
	s := newServer(mode)
	modern := strings.HasPrefix(mode, "modern")
	writeLine := func(b []byte) { out.Write(append(b, '\n')) }
	write := func(v any) {
		b, _ := json.Marshal(v)
		writeLine(b)
	}
	r := bufio.NewReader(in)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if mode == "garbage" {
				writeLine([]byte("this is not JSON-RPC"))
			} else if e := s.handle(modern, line, write); e != nil {
				return e
			}
		}
		if err != nil {
			return nil
		}
	}
}

// Run is the fake server as a process: it serves mode on stdin and stdout and returns the exit
// code, 0 when stdin ends, 3 when the crash mode is told to crash, 1 on any other error; an
// error is written to stderr.
func Run(mode string, stdin io.Reader, stdout, stderr io.Writer) int {
	err := Serve(mode, stdin, stdout)
	if err != nil {
		fmt.Fprintln(stderr, err)
	}
	switch {
	case errors.Is(err, ErrCrash):
		return 3
	case err != nil:
		return 1
	}
	return 0
}
