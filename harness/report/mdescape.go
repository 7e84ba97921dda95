package report

import "strings"

// mdText is text from outside (a tool, property, class or validator name, a message, a reason, a
// note) written so that GitHub-flavoured Markdown renders it as that very text, on one line: its
// control characters escaped (EscapeLine), <, > and & written as entities, and every character
// that could begin markup escaped with a backslash, so that no HTML tag, link, image, code span,
// emphasis, strikethrough, math, emoji, table cell break or autolinked URL comes out of it. A
// bare e-mail address is still shown as a mailto link (GitHub finds those in the rendered text,
// where no escape reaches). Every place the Markdown renderer writes such text outside a code
// span writes it through mdText; inside one, mdCode.
func mdText(s string) string {
	s = EscapeLine(s)
	if !strings.ContainsAny(s, mdSpecial) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case mdEscaped(s, i):
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// mdPunct is the ASCII punctuation mdText always escapes with a backslash: the escape itself,
// code spans, emphasis and strikethrough, links and images (no link is made without [ and ]),
// headings' closing marks and issue references, table cells, math and mentions. It also escapes
// a colon that could begin a URL or an emoji code (before a slash or a letter), the dot of
// "www.", and an underscore that is not inside a word (inside one it emphasises nothing).
const mdPunct = "\\`*~[]!#|$@"

// mdSpecial is every character mdText may change.
const mdSpecial = mdPunct + "&<>.:_"

// mdEscaped reports whether s[i] is written with a backslash before it.
func mdEscaped(s string, i int) bool {
	next := func() byte {
		if i+1 < len(s) {
			return s[i+1]
		}
		return 0
	}
	switch s[i] {
	case '.':
		return wwwBefore(s[:i])
	case ':':
		return next() == '/' || isAlpha(next())
	case '_':
		return i == 0 || !isAlnum(s[i-1]) || !isAlnum(next())
	}
	return strings.IndexByte(mdPunct, s[i]) >= 0
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }

// wwwBefore reports whether s ends in "www" (any case), whose next dot GitHub would turn into
// a link.
func wwwBefore(s string) bool {
	return len(s) >= 3 && strings.EqualFold(s[len(s)-3:], "www")
}
