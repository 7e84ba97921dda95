package jsonvalue

// Scanner reads the tokens of one known message shape from B at I, for the fast paths that
// read such messages without building a value. Each method skips white space first and reports
// false when what is there is not what it reads (I is then left anywhere: the caller gives up
// on the message and reads it with a full parser).
type Scanner struct {
	B []byte
	I int
}

// Space skips white space.
func (s *Scanner) Space() {
	for s.I < len(s.B) {
		switch s.B[s.I] {
		case ' ', '\t', '\n', '\r':
			s.I++
		default:
			return
		}
	}
}

// Byte skips white space and then c, if c is there.
func (s *Scanner) Byte(c byte) bool {
	s.Space()
	if s.I < len(s.B) && s.B[s.I] == c {
		s.I++
		return true
	}
	return false
}

// End reports whether only white space is left.
func (s *Scanner) End() bool {
	s.Space()
	return s.I == len(s.B)
}

// Bool reads true or false.
func (s *Scanner) Bool() (v, ok bool) {
	s.Space()
	rest := s.B[s.I:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.I += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.I += 5
		return false, true
	}
	return false, false
}

// Uint reads a non-negative integer of at most maxDigits digits (at most 19), written without
// sign, leading zero, fraction or exponent.
func (s *Scanner) Uint(maxDigits int) (uint64, bool) {
	s.Space()
	start := s.I
	var n uint64
	for s.I < len(s.B) && s.B[s.I] >= '0' && s.B[s.I] <= '9' {
		n = n*10 + uint64(s.B[s.I]-'0')
		s.I++
	}
	digits := s.I - start
	if digits == 0 || digits > min(maxDigits, 19) || (digits > 1 && s.B[start] == '0') {
		return 0, false
	}
	if s.I < len(s.B) && (s.B[s.I] == '.' || s.B[s.I] == 'e' || s.B[s.I] == 'E') {
		return 0, false
	}
	return n, true
}
