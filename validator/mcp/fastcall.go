package mcp

import (
	"encoding/json"
	"unicode/utf8"
)

// fastCallAnswer reads the common answer to a tools/call without reflection:
// {"result":{"content":[{"type":S,"text":S},...],"isError":B},"jsonrpc":"2.0","id":N}, members
// in any order (isError optional), N a non-negative integer. Anything else (an error member,
// other members, repeated ones, other shapes) reports false and is decoded by encoding/json,
// which is the reference: whenever fastCallAnswer reports true, json.Unmarshal gives the same
// id and result.
func fastCallAnswer(line []byte) (id int64, r *callResult, ok bool) {
	s := callScanner{b: line}
	var hasID, hasVersion bool
	if !s.byte('{') {
		return 0, nil, false
	}
	for {
		key, ok := s.plain()
		if !ok || !s.byte(':') {
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
			if id, ok = s.id(); !ok {
				return 0, nil, false
			}
			hasID = true
		default:
			return 0, nil, false
		}
		if !s.byte(',') {
			break
		}
	}
	if !s.byte('}') || !s.end() || !hasID || r == nil {
		return 0, nil, false
	}
	return id, r, true
}

// callScanner reads the members fastCallAnswer takes.
type callScanner struct {
	b []byte
	i int
}

func (s *callScanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// byte skips white space and then c, if c is there.
func (s *callScanner) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (s *callScanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// plain reads a string of printable ASCII without escapes and returns its bytes.
func (s *callScanner) plain() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c < 0x20 || c == '\\' || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

// text reads any string: one without escapes as it is (valid UTF-8 only), one with escapes
// through encoding/json.
func (s *callScanner) text() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start, escaped := s.i-1, false
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '\\':
			escaped = true
			s.i++
		case c < 0x20:
			return "", false
		case c == '"':
			s.i++
			tok := s.b[start:s.i]
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

// id reads a non-negative integer of up to 18 digits, written without fraction or exponent.
func (s *callScanner) id() (int64, bool) {
	s.space()
	start := s.i
	var n int64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		n = n*10 + int64(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 18 || (digits > 1 && s.b[start] == '0') {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	return n, true
}

// result reads {"content":[...],"isError":B}, isError optional.
func (s *callScanner) result() (*callResult, bool) {
	if !s.byte('{') {
		return nil, false
	}
	r := &callResult{}
	var hasContent, hasError bool
	for {
		key, ok := s.plain()
		if !ok || !s.byte(':') {
			return nil, false
		}
		switch string(key) {
		case "content":
			if hasContent || !s.content(r) {
				return nil, false
			}
			hasContent = true
		case "isError":
			if hasError || !s.bool(&r.IsError) {
				return nil, false
			}
			hasError = true
		default:
			return nil, false
		}
		if !s.byte(',') {
			break
		}
	}
	return r, hasContent && s.byte('}')
}

// content reads an array of {"type":S,"text":S} into r.Content.
func (s *callScanner) content(r *callResult) bool {
	if !s.byte('[') {
		return false
	}
	r.Content = []contentBlock{}
	if s.byte(']') {
		return true
	}
	for {
		var b contentBlock
		if !s.byte('{') || !s.block(&b) || !s.byte('}') {
			return false
		}
		r.Content = append(r.Content, b)
		if s.byte(']') {
			return true
		}
		if !s.byte(',') {
			return false
		}
	}
}

// block reads the members of one content block: type and text, each at most once.
func (s *callScanner) block(b *contentBlock) bool {
	var hasType, hasText bool
	for {
		key, ok := s.plain()
		if !ok || !s.byte(':') {
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
		if !s.byte(',') {
			return true
		}
	}
}

func (s *callScanner) bool(dst *bool) bool {
	s.space()
	rest := s.b[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		*dst, s.i = true, s.i+4
		return true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		*dst, s.i = false, s.i+5
		return true
	}
	return false
}
