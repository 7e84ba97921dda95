package stdio

import (
	"bytes"
	"sync"
)

// copyStderr passes the child's stderr through and keeps its last lines.
func (ch *child) copyStderr() {
	defer ch.c.wg.Done()
	defer close(ch.stderrDone)
	defer ch.stderr.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := ch.stderr.Read(buf)
		if n > 0 {
			ch.c.stderr.Write(buf[:n])
			ch.tail.add(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// tail keeps the last lines written to stderr.
type tail struct {
	mu      sync.Mutex
	ring    []string
	partial []byte
}

func (t *tail) add(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.partial = appendCapped(t.partial, p)
			return
		}
		t.partial = appendCapped(t.partial, p[:i])
		t.push(string(bytes.TrimRight(t.partial, "\r")))
		t.partial = t.partial[:0]
		p = p[i+1:]
	}
}

func appendCapped(dst, p []byte) []byte {
	if room := tailLength - len(dst); len(p) > room {
		p = p[:max(room, 0)]
	}
	return append(dst, p...)
}

func (t *tail) push(s string) {
	if len(t.ring) == tailLines {
		copy(t.ring, t.ring[1:])
		t.ring = t.ring[:tailLines-1]
	}
	t.ring = append(t.ring, s)
}

func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.ring...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
		if len(out) > tailLines {
			out = out[1:]
		}
	}
	return out
}
