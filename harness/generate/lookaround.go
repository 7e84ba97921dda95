package generate

import (
	"fmt"
	"regexp"
	"strings"
)

// withoutLookarounds is an ECMA-262 pattern with its lookahead and lookbehind groups taken out
// (RE2, which the generator builds strings with, has none), and the bodies of its positive
// lookaheads, each without a leading ".*" or ".*?": what a string must hold somewhere. The
// string built from the rest is given those parts and then checked by the oracle's own engine.
func withoutLookarounds(src string) (base string, ahead []string) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			b.WriteString(src[i : i+2])
			i++
			continue
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(' && lookaround(src[i:]) > 0:
			open := lookaround(src[i:])
			end := groupEnd(src, i)
			if end < 0 {
				return src, nil
			}
			if src[i+2] == '=' {
				body := src[i+open : end]
				body = strings.TrimPrefix(strings.TrimPrefix(body, ".*?"), ".*")
				ahead = append(ahead, body)
			}
			i = end
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), ahead
}

// lookaround is the length of the opening of the lookaround group s starts with: 3 for (?= and
// (?!, 4 for (?<= and (?<!; 0 when s starts no lookaround.
func lookaround(s string) int {
	switch {
	case strings.HasPrefix(s, "(?="), strings.HasPrefix(s, "(?!"):
		return 3
	case strings.HasPrefix(s, "(?<="), strings.HasPrefix(s, "(?<!"):
		return 4
	}
	return 0
}

// groupEnd is the index of the ')' that closes the group opened at src[open], escapes and
// classes skipped; -1 when none does.
func groupEnd(src string, open int) int {
	depth, inClass := 0, false
	for i := open; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// withGroupsForBackrefs is src with each backreference (\1, \k<name>) replaced by a copy of the
// group it names, (?:...): RE2 builds a string of the same shape, which the oracle's engine
// keeps only when the copy repeats the group's text. Unchanged when src has none.
func withGroupsForBackrefs(src string) string {
	var groups []string // the capture groups' bodies, in the order they open
	names := map[string]int{}
	inClass := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(' && !strings.HasPrefix(src[i:], "(?") || strings.HasPrefix(src[i:], "(?<") &&
			lookaround(src[i:]) == 0:
			open := i + 1
			if src[i+1] == '?' {
				end := strings.IndexByte(src[i:], '>')
				if end < 0 {
					return src
				}
				names[src[i+3:i+end]] = len(groups)
				open = i + end + 1
			}
			end := groupEnd(src, i)
			if end < 0 {
				return src
			}
			groups = append(groups, src[open:end])
		}
	}
	var b strings.Builder
	inClass = false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) && !inClass {
			n, width := backref(src[i+1:], names)
			if n >= 0 && n < len(groups) {
				b.WriteString("(?:" + withGroupsForBackrefs(groups[n]) + ")")
				i += width
				continue
			}
			b.WriteString(src[i : i+2])
			i++
			continue
		}
		switch {
		case c == '\\':
			b.WriteString(src[i : i+2])
			i++
			continue
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		}
		b.WriteByte(c)
	}
	return b.String()
}

// backref reads the backreference after a backslash: the index of the group it names and the
// bytes it takes; -1 when s starts none.
func backref(s string, names map[string]int) (int, int) {
	if strings.HasPrefix(s, "k<") {
		if end := strings.IndexByte(s, '>'); end > 0 {
			if n, ok := names[s[2:end]]; ok {
				return n, end + 1
			}
		}
		return -1, 0
	}
	n, width := 0, 0
	for width < len(s) && s[width] >= '0' && s[width] <= '9' {
		n = n*10 + int(s[width]-'0')
		width++
	}
	if width == 0 || s[0] == '0' {
		return -1, 0
	}
	return n - 1, width
}

// ecmaProperty matches the ECMA-262 property escapes RE2 spells otherwise: \p{Script=Greek},
// \p{sc=Greek}, \p{Script_Extensions=Greek}, \p{scx=Greek}, \p{General_Category=L}, \p{gc=L}.
var ecmaProperty = regexp.MustCompile(`\\([pP])\{(?:Script|sc|Script_Extensions|scx|General_Category|` +
	`gc)=([A-Za-z_]+)\}`)

// binaryProperty matches the ECMA-262 binary property escapes RE2 does not name, and
// binaryClass is the RE2 class each is built from (the oracle's engine judges what is built).
var (
	binaryProperty = regexp.MustCompile(`\\p\{(ASCII|Any|Assigned|Alphabetic|Alpha|Uppercase|Upper|Lowercase|Lower|` +
		`White_Space|space)\}`)
	binaryClass = map[string]string{"ASCII": `[\x00-\x7F]`, "Any": `[\x00-\x{10FFFF}]`, "Assigned": `\P{Cn}`,
		"Alphabetic": `[\p{L}\p{Nl}]`, "Alpha": `[\p{L}\p{Nl}]`, "Uppercase": `\p{Lu}`, "Upper": `\p{Lu}`,
		"Lowercase": `\p{Ll}`, "Lower": `\p{Ll}`, "White_Space": `\s`, "space": `\s`}
)

// ecmaClasses rewrites the ECMA-262 syntax RE2 parses otherwise or not at all, for building
// strings only (the oracle's engine judges them): property escapes as RE2 names them (a binary
// property as a class near it), \cX as the control character, [^] (any character) and [] (none).
func ecmaClasses(src string) string {
	src = ecmaProperty.ReplaceAllString(src, `\$1{$2}`)
	src = binaryProperty.ReplaceAllStringFunc(src, func(m string) string {
		return binaryClass[m[3:len(m)-1]]
	})
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+2 < len(src) && src[i+1] == 'c' && isASCIILetter(src[i+2]):
			fmt.Fprintf(&b, `\x{%x}`, src[i+2]%32)
			i += 2
			continue
		case c == '\\' && i+1 < len(src):
			b.WriteString(src[i : i+2])
			i++
			continue
		case inClass:
			inClass = c != ']'
		case strings.HasPrefix(src[i:], "[^]"):
			b.WriteString(`[\s\S]`)
			i += 2
			continue
		case strings.HasPrefix(src[i:], "[]"):
			b.WriteString(`[^\s\S]`)
			i++
			continue
		case c == '[':
			inClass = true
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
