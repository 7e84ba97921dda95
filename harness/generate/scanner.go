package generate

// scanner reads an ECMA-262 pattern a token at a time, the one walk every rewrite of a pattern
// makes: an escape is one token (a backslash and the byte after it), a whole [] (no character)
// or [^] (any character) is one, every other byte is one, and each token is known to be inside
// a character class or outside.
type scanner struct {
	src     string
	next    int  // where the next token starts; a rewrite may move it past what it replaced
	inClass bool // the next token is inside a character class
}

// token is one token of a pattern.
type token struct {
	at      int    // where it starts in the pattern
	text    string // its bytes
	inClass bool   // inside a character class (the '[' that opens one is not, the ']' that closes it is)
}

// scan returns the next token and moves past it; ok is false at the pattern's end.
func (s *scanner) scan() (t token, ok bool) {
	if s.next >= len(s.src) {
		return token{}, false
	}
	i := s.next
	t = token{at: i, text: s.src[i : i+1], inClass: s.inClass}
	switch c := s.src[i]; {
	case c == '\\':
		if i+1 < len(s.src) {
			t.text = s.src[i : i+2]
		}
	case s.inClass:
		s.inClass = c != ']'
	case c == '[' && hasPrefixAt(s.src, i, "[^]"):
		t.text = "[^]"
	case c == '[' && hasPrefixAt(s.src, i, "[]"):
		t.text = "[]"
	case c == '[':
		s.inClass = true
	}
	s.next = i + len(t.text)
	return t, true
}

// opens reports whether the token is a '(' that opens a group.
func (t token) opens() bool { return t.text == "(" && !t.inClass }

// hasPrefixAt reports whether src holds prefix at i.
func hasPrefixAt(src string, i int, prefix string) bool {
	return len(src)-i >= len(prefix) && src[i:i+len(prefix)] == prefix
}
