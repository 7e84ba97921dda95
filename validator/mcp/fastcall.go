package mcp

import (
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// fastCallAnswer reads the common answers to a tools/call without reflection:
// {"result":{"content":[{"type":S,"text":S},...],"isError":B},"jsonrpc":"2.0","id":N} and
// {"error":{"code":C,"message":S},"jsonrpc":"2.0","id":N}, members in any order (isError
// optional), N a non-negative integer, C an integer. Anything else (both result and error, a
// data member, other members, repeated ones, other shapes) reports false and is decoded by
// encoding/json, which is the reference: whenever fastCallAnswer reports true, json.Unmarshal
// gives the same id, result and error.
func fastCallAnswer(line []byte) (id int64, r *callResult, e *rpcError, ok bool) {
	s := callScanner{jsonvalue.Scanner{B: line}}
	var hasID, hasVersion bool
	ok = s.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "result":
			if r == nil && e == nil {
				r, ok = s.result()
			}
		case "error":
			if r == nil && e == nil {
				e, ok = s.rpcError()
			}
		case "jsonrpc":
			var v []byte
			v, ok = s.plain()
			ok = ok && !hasVersion && string(v) == "2.0"
			hasVersion = true
		case "id":
			var n uint64
			n, ok = s.Uint(18)
			ok = ok && !hasID
			id, hasID = int64(n), true
		}
		return ok
	})
	if !ok || !s.End() || !hasID || r == nil && e == nil {
		return 0, nil, nil, false
	}
	return id, r, e, true
}

// callScanner reads the members fastCallAnswer takes.
type callScanner struct {
	jsonvalue.Scanner
}

// plain reads a string of printable ASCII without escapes and returns its bytes.
func (s *callScanner) plain() ([]byte, bool) {
	if !s.Byte('"') {
		return nil, false
	}
	start := s.I
	for ; s.I < len(s.B); s.I++ {
		switch c := s.B[s.I]; {
		case c == '"':
			s.I++
			return s.B[start : s.I-1], true
		case c < 0x20 || c == '\\' || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

// text reads any string of valid UTF-8, unescaping it as encoding/json does (jsonvalue.Parse
// reads one with escapes).
func (s *callScanner) text() (string, bool) {
	if !s.Byte('"') {
		return "", false
	}
	start, escaped := s.I, false
	for ; s.I < len(s.B); s.I++ {
		switch c := s.B[s.I]; {
		case c == '\\':
			escaped = true
			s.I++
		case c < 0x20:
			return "", false
		case c == '"':
			s.I++
			body := s.B[start : s.I-1]
			if !utf8.Valid(body) {
				return "", false
			}
			if !escaped {
				return string(body), true
			}
			v, err := jsonvalue.Parse(s.B[start-1 : s.I])
			if err != nil {
				return "", false
			}
			return v.(string), true
		}
	}
	return "", false
}

// result reads {"content":[...],"isError":B}, isError optional.
func (s *callScanner) result() (*callResult, bool) {
	r := &callResult{}
	var hasContent, hasError bool
	ok := s.object(func(key []byte) bool {
		switch {
		case string(key) == "content" && !hasContent:
			hasContent = true
			return s.content(r)
		case string(key) == "isError" && !hasError:
			hasError = true
			var ok bool
			r.IsError, ok = s.Bool()
			return ok
		}
		return false
	})
	return r, ok && hasContent
}

// object reads {"KEY":VALUE,...}: member reads each VALUE, and reports false for a KEY it
// does not take (any string with an escape is not taken).
func (s *callScanner) object(member func(key []byte) bool) bool {
	if !s.Byte('{') {
		return false
	}
	for {
		key, ok := s.plain()
		if !ok || !s.Byte(':') || !member(key) {
			return false
		}
		if !s.Byte(',') {
			return s.Byte('}')
		}
	}
}

// content reads an array of {"type":S,"text":S} into r.Content.
func (s *callScanner) content(r *callResult) bool {
	if !s.Byte('[') {
		return false
	}
	r.Content = []contentBlock{}
	if s.Byte(']') {
		return true
	}
	for {
		var b contentBlock
		if !s.block(&b) {
			return false
		}
		r.Content = append(r.Content, b)
		if s.Byte(']') {
			return true
		}
		if !s.Byte(',') {
			return false
		}
	}
}

// block reads one content block {"type":S,"text":S}: type and text, each at most once.
func (s *callScanner) block(b *contentBlock) bool {
	var hasType, hasText bool
	return s.object(func(key []byte) bool {
		var ok bool
		switch {
		case string(key) == "type" && !hasType:
			b.Type, ok = s.text()
			hasType = true
		case string(key) == "text" && !hasText:
			b.Text, ok = s.text()
			hasText = true
		}
		return ok
	})
}
