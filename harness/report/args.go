package report

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// plainArgs reports whether argument text can be shown as is: UTF-8, on one line, printable,
// with no space at either end.
func plainArgs(s string) bool {
	if s == "" || !utf8.ValidString(s) || strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}

// showArgs is argument text for a report: as is when it is plain, else Go-quoted (so control
// characters, line breaks and bytes that are not UTF-8 stay visible), cut at 400 characters.
func showArgs(s string) string {
	const max = 400
	q := s
	if !plainArgs(s) {
		q = strconv.Quote(s) + " (quoted)"
	}
	if len(q) > max {
		q = q[:max] + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return q
}

// Truncate cuts s to at most n runes, marking the cut with an ellipsis.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
