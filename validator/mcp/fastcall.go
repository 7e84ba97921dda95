package mcp

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// fastCallAnswer reads the common answer to a tools/call without reflection:
// {"result":{"content":[{"type":S,"text":S},...],"isError":B},"jsonrpc":"2.0","id":N}, members
// in any order (isError optional), N a non-negative integer. Anything else (an error member,
// other members, repeated ones, other shapes) reports false and is decoded by encoding/json,
// which is the reference: whenever fastCallAnswer reports true, json.Unmarshal gives the same
// id and result.
func fastCallAnswer(line []byte) (id int64, r *callResult, ok bool) {
	s := callScanner{jsonvalue.Scanner{B: line}}
	var hasID, hasVersion bool
	if !s.Byte('{') {
		return 0, nil, false
	}
	for {
		key, ok := s.plain()
		if !ok || !s.Byte(':') {
			return 0, nil, false
		}
		switch string(key) {
		case "result":
			if r != nil {
				return 0, nil, false
			}
			if r, ok = s.result(); !ok {
				return 0, nil, false
			}
		case "jsonrpc":
			v, ok := s.plain()
			if hasVersion || !ok || string(v) != "2.0" {
				return 0, nil, false
			}
			hasVersion = true
		case "id":
			if hasID {
				return 0, nil, false
			}
			n, ok := s.Uint(18)
			if !ok {
				return 0, nil, false
			}
			id = int64(n)
			hasID = true
		default:
			return 0, nil, false
		}
		if !s.Byte(',') {
			break
		}
	}
	if !s.Byte('}') || !s.End() || !hasID || r == nil {
		return 0, nil, false
	}
	return id, r, true
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

// text reads any string: one without escapes as it is (valid UTF-8 only), one with escapes
// through encoding/json.
func (s *callScanner) text() (string, bool) {
	if !s.Byte('"') {
		return "", false
	}
	start, escaped := s.I-1, false
	for ; s.I < len(s.B); s.I++ {
		switch c := s.B[s.I]; {
		case c == '\\':
			escaped = true
			s.I++
		case c < 0x20:
			return "", false
		case c == '"':
			s.I++
			tok := s.B[start:s.I]
			if !escaped {
				if !utf8.Valid(tok) {
					return "", false
				}
				return string(tok[1 : len(tok)-1]), true
			}
			var v string
			return v, json.Unmarshal(tok, &v) == nil
		}
	}
	return "", false
}

// result reads {"content":[...],"isError":B}, isError optional.
func (s *callScanner) result() (*callResult, bool) {
	if !s.Byte('{') {
		return nil, false
	}
	r := &callResult{}
	var hasContent, hasError bool
	for {
		key, ok := s.plain()
		if !ok || !s.Byte(':') {
			return nil, false
		}
		switch string(key) {
		case "content":
			if hasContent || !s.content(r) {
				return nil, false
			}
			hasContent = true
		case "isError":
			if hasError {
				return nil, false
			}
			if r.IsError, ok = s.Bool(); !ok {
				return nil, false
			}
			hasError = true
		default:
			return nil, false
		}
		if !s.Byte(',') {
			break
		}
	}
	return r, hasContent && s.Byte('}')
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
		if !s.Byte('{') || !s.block(&b) || !s.Byte('}') {
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

// block reads the members of one content block: type and text, each at most once.
func (s *callScanner) block(b *contentBlock) bool {
	var hasType, hasText bool
	for {
		key, ok := s.plain()
		if !ok || !s.Byte(':') {
			return false
		}
		switch {
		case string(key) == "type" && !hasType:
			b.Type, ok = s.text()
			hasType = true
		case string(key) == "text" && !hasText:
			b.Text, ok = s.text()
			hasText = true
		default:
			return false
		}
		if !ok {
			return false
		}
		if !s.Byte(',') {
			return true
		}
	}
}
