package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from outside (tool names, a validator's messages and notes, reasons that quote a schema, the
// calls of a log) is written, in every text output of toolproof, with its control characters
// escaped: an ESC, a carriage return or a newline in a tool name could otherwise move the cursor,
// rewrite a line or forge a "PASS" line in a terminal or a CI log. Bidirectional overrides, which
// reorder what a reader sees, are escaped too.

// EscapeLine escapes every control character of s, newlines included, as \n, \r, \t or
// \u00XX: one line out.
func EscapeLine(s string) string { return escape(s, false) }

// EscapeText is EscapeLine keeping newlines, for text written over several lines.
func EscapeText(s string) string { return escape(s, true) }

func escape(s string, keepNewlines bool) string {
	if !needsEscape(s, keepNewlines) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' && keepNewlines:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case hidden(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(s string, keepNewlines bool) bool {
	for _, r := range s {
		if (r == '\n' && !keepNewlines) || r == '\r' || r == '\t' || hidden(r) {
			return true
		}
	}
	return false
}

// hidden reports whether r is a control character (C0 but newline, DEL, C1) or a
// bidirectional control.
func hidden(r rune) bool {
	switch {
	case r == '\n':
		return false
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// NewJSONEncoder is a json.Encoder on w for every JSON toolproof writes: HTML characters kept as
// they are, and the hidden characters encoding/json leaves raw (DEL, C1 controls, bidirectional
// controls) written as \u escapes. The JSON values are the same; a terminal or a code view that
// shows the JSON is not moved or reordered by them.
func NewJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(jsonEscaper{w})
	enc.SetEscapeHTML(false)
	return enc
}

// jsonEscaper escapes the hidden characters of each JSON value written through it. A
// json.Encoder writes each value whole, in one Write, so no character is split between two.
type jsonEscaper struct{ w io.Writer }

func (e jsonEscaper) Write(p []byte) (int, error) {
	if _, err := e.w.Write(EscapeJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// EscapeJSON writes the hidden characters of JSON text data (DEL, C1 controls, bidirectional
// controls, which can only stand inside its strings) as \u escapes: the same JSON values.
func EscapeJSON(data []byte) []byte {
	if !bytes.ContainsFunc(data, func(r rune) bool { return r >= 0x7F && hidden(r) }) {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r >= 0x7F && hidden(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, data[:n]...)
		}
		data = data[n:]
	}
	return out
}
