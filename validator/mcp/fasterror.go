package mcp

import (
	"unicode/utf16"
	"unicode/utf8"
)

// rpcError reads {"code":C,"message":S}, each once and both there: C an integer of at most 9
// digits. A data member, or any other, reports false (encoding/json reads those).
func (s *callScanner) rpcError() (*rpcError, bool) {
	e := &rpcError{}
	var hasCode, hasMessage bool
	ok := s.object(func(key []byte) bool {
		var ok bool
		switch {
		case string(key) == "code" && !hasCode:
			e.Code, ok = s.int()
			hasCode = true
		case string(key) == "message" && !hasMessage:
			e.Message, ok = s.text()
			hasMessage = true
		}
		return ok
	})
	return e, ok && hasCode && hasMessage
}

// int reads an integer of at most 9 digits, with a minus sign or none.
func (s *callScanner) int() (int, bool) {
	s.Space()
	neg := s.I < len(s.B) && s.B[s.I] == '-'
	if neg {
		s.I++
		if s.I == len(s.B) || s.B[s.I] < '0' || s.B[s.I] > '9' {
			return 0, false // Uint would skip white space after the sign
		}
	}
	n, ok := s.Uint(9)
	if neg {
		return -int(n), ok
	}
	return int(n), ok
}

// unquote unescapes the body of a JSON string of valid UTF-8 as encoding/json does, for the
// escapes it reads the same way: \" \\ \/ \b \f \n \r \t and \uXXXX, a surrogate only as half
// of a pair. Anything else (an unpaired surrogate, which encoding/json turns into U+FFFD)
// reports false.
func unquote(body []byte) (string, bool) {
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 == len(body) {
			return "", false
		}
		switch body[i+1] {
		case '"', '\\', '/':
			out = append(out, body[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n := hexRune(body[i:])
			if n == 0 {
				return "", false
			}
			out = utf8.AppendRune(out, r)
			i += n
			continue
		default:
			return "", false
		}
		i += 2
	}
	return string(out), true
}

// hexRune reads \uXXXX at the start of b, or a surrogate pair \uXXXX\uXXXX, and the bytes it
// took; 0 when it is neither.
func hexRune(b []byte) (rune, int) {
	r, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	r2, ok := hex4(b[6:])
	if !ok {
		return 0, 0
	}
	if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
		return pair, 12
	}
	return 0, 0
}

// hex4 reads \uXXXX at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}
