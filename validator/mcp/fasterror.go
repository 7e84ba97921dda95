package mcp

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
