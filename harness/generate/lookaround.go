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
	sc := scanner{src: src}
	for t, ok := sc.scan(); ok; t, ok = sc.scan() {
		if open := lookaround(src[t.at:]); t.opens() && open > 0 {
			end := groupEnd(src, t.at)
			if end < 0 {
				return src, nil
			}
			if src[t.at+2] == '=' {
				body := src[t.at+open : end]
				body = strings.TrimPrefix(strings.TrimPrefix(body, ".*?"), ".*")
				ahead = append(ahead, body)
			}
			sc.next = end + 1
			continue
		}
		b.WriteString(t.text)
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
	depth := 0
	sc := scanner{src: src, next: open}
	for t, ok := sc.scan(); ok; t, ok = sc.scan() {
		switch {
		case t.opens():
			depth++
		case t.text == ")" && !t.inClass:
			depth--
			if depth == 0 {
				return t.at
			}
		}
	}
	return -1
}

// withGroupsForBackrefs is src with each backreference (\1, \k<name>) replaced by a copy of the
// group it names, (?:...): RE2 builds a string of the same shape, which the oracle's engine
// keeps only when the copy repeats the group's text. Unchanged when src has none.
func withGroupsForBackrefs(src string) string {
	groups, names, ok := captureGroups(src)
	if !ok {
		return src
	}
	var b strings.Builder
	sc := scanner{src: src}
	for t, ok := sc.scan(); ok; t, ok = sc.scan() {
		if len(t.text) == 2 && t.text[0] == '\\' && !t.inClass {
			if n, width := backref(src[t.at+1:], names); n >= 0 && n < len(groups) {
				b.WriteString("(?:" + withGroupsForBackrefs(groups[n]) + ")")
				sc.next = t.at + 1 + width
				continue
			}
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// captureGroups are the bodies of src's capture groups in the order they open, and the index of
// each named one; ok is false when a group does not close.
func captureGroups(src string) (groups []string, names map[string]int, ok bool) {
	names = map[string]int{}
	sc := scanner{src: src}
	for t, more := sc.scan(); more; t, more = sc.scan() {
		rest := src[t.at:]
		if !t.opens() || strings.HasPrefix(rest, "(?") && (!strings.HasPrefix(rest, "(?<") || lookaround(rest) > 0) {
			continue
		}
		open := t.at + 1
		if strings.HasPrefix(rest, "(?<") {
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return nil, nil, false
			}
			names[rest[3:end]] = len(groups)
			open = t.at + end + 1
		}
		end := groupEnd(src, t.at)
		if end < 0 {
			return nil, nil, false
		}
		groups = append(groups, src[open:end])
	}
	return groups, names, true
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
var ecmaProperty = regexp.MustCompile(`\\([pP])\{(?:Script|sc|Script_Extensions|scx|General_Category|gc)` +
	`=([A-Za-z_]+)\}`)

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
	sc := scanner{src: src}
	for t, ok := sc.scan(); ok; t, ok = sc.scan() {
		switch {
		case t.text == `\c` && t.at+2 < len(src) && isASCIILetter(src[t.at+2]):
			fmt.Fprintf(&b, `\x{%x}`, src[t.at+2]%32)
			sc.next = t.at + 3
		case t.text == "[^]":
			b.WriteString(`[\s\S]`)
		case t.text == "[]":
			b.WriteString(`[^\s\S]`)
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
