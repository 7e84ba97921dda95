package fakeserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
)

// Serve answers MCP requests read from in on out until in ends.
func Serve(mode string, in io.Reader, out io.Writer) error {
	s := newServer(mode)
	modern := strings.HasPrefix(mode, "modern")
	var wmu sync.Mutex
	writeLine := func(b []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		out.Write(append(b, '\n'))
	}
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
