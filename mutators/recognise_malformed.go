package mutators

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// malformed_json read backwards: each variant of the mutator has a repair of the text; the first
// repair (in this order) that gives JSON names the variant. A repair that gives the original text
// back lets recognition go on with the value; truncated and nan lose what was there, so the
// value is not read further.

// textRepair undoes one malformed_json variant; ok is false when it does not apply. whole is
// false when the repaired text is not the original (the value is not read further).
type textRepair struct {
	variant string
	whole   bool
	repair  func(b []byte) ([]byte, bool)
	sure    bool // the variant is named when it applies, even if the repair gives no JSON
}

// textRepairs are the malformed_json variants, in the order they are tried.
var textRepairs = []textRepair{
	{"markdown-fence", true, unfence, false},
	{"leading-prose", true, unprose, false},
	{"line-comment", true, func(b []byte) ([]byte, bool) { return outsideStrings(b, lineComment, "") }, false},
	{"comment", true, func(b []byte) ([]byte, bool) { return outsideStrings(b, blockComment, "") }, false},
	{"trailing-comma", true, func(b []byte) ([]byte, bool) { return outsideStrings(b, trailingComma, "$1") }, false},
	{"single-quotes", true, unsingle, true}, // strings that held ' cannot be told back
	{"python-literal", true, func(b []byte) ([]byte, bool) { return outsideStrings(b, pythonLiteral, "") }, false},
	{"unquoted-key", true, func(b []byte) ([]byte, bool) { return outsideStrings(b, unquotedKey, `$1"$2"$3`) }, false},
	{"invalid-utf8", true, func(b []byte) ([]byte, bool) {
		return bytes.ToValidUTF8(b, nil), !utf8.Valid(b)
	}, false},
	{"nan", false, func(b []byte) ([]byte, bool) { return outsideStrings(b, nanLiteral, "0") }, false},
	{"truncated", false, untruncate, false},
}

var (
	lineComment   = regexp.MustCompile(`//[^\n]*`)
	blockComment  = regexp.MustCompile(`(?s)/\*.*?\*/`)
	trailingComma = regexp.MustCompile(`,(\s*[}\]])`)
	pythonLiteral = regexp.MustCompile(`\b(True|False|None)\b`)
	unquotedKey   = regexp.MustCompile(`([{,]\s*)([^"\s:{}\[\],][^":{}\[\],]*?)?(\s*:)`)
	nanLiteral    = regexp.MustCompile(`-?\b(NaN|Infinity)\b`)
)

// readMalformed names the malformed_json variant of b, which is not JSON, and repairs it: the
// repaired value and whether it is the call's own (whole). ok is false when no repair gives JSON
// (the variant "other").
func readMalformed(b []byte) (d Distortion, v any, whole, ok bool) {
	for _, r := range textRepairs {
		fixed, applies := r.repair(b)
		if !applies {
			continue
		}
		if r.variant == "truncated" {
			return Distortion{Class: MalformedJSON, Variant: r.variant, Keyword: "json"}, nil, false, true
		}
		if val, err := jsonvalue.Parse(fixed); err == nil {
			return Distortion{Class: MalformedJSON, Variant: r.variant, Keyword: "json"}, val, r.whole, true
		}
		if r.sure {
			return Distortion{Class: MalformedJSON, Variant: r.variant, Keyword: "json"}, nil, false, true
		}
	}
	return Distortion{Class: MalformedJSON, Variant: "other", Keyword: "json"}, nil, false, false
}

// pythonWords are the Python literals and their JSON.
var pythonWords = map[string]string{"True": "true", "False": "false", "None": "null"}

// outsideStrings replaces the matches of re outside double-quoted strings with repl (a
// regexp template; "" with pythonLiteral: the JSON literal); applies is false when there was
// none.
func outsideStrings(b []byte, re *regexp.Regexp, repl string) (out []byte, applies bool) {
	for i := 0; i < len(b); {
		if b[i] == '"' {
			j := stringEnd(b, i)
			if j >= len(b) {
				j = len(b) - 1
			}
			out = append(out, b[i:j+1]...)
			i = j + 1
			continue
		}
		j := i
		for j < len(b) && b[j] != '"' {
			j++
		}
		seg := b[i:j]
		if re.Match(seg) {
			applies = true
			if re == pythonLiteral {
				seg = re.ReplaceAllFunc(seg, func(w []byte) []byte { return []byte(pythonWords[string(w)]) })
			} else {
				seg = re.ReplaceAll(seg, []byte(repl))
			}
		}
		out = append(out, seg...)
		i = j
	}
	return out, applies
}

// unfence takes the JSON out of a markdown code fence.
func unfence(b []byte) ([]byte, bool) {
	t := bytes.TrimSpace(b)
	if !bytes.HasPrefix(t, []byte("```")) || !bytes.HasSuffix(t, []byte("```")) || len(t) < 6 {
		return nil, false
	}
	t = t[3 : len(t)-3]
	if nl := bytes.IndexByte(t, '\n'); nl >= 0 && !bytes.ContainsAny(t[:nl], "{[") {
		t = t[nl+1:]
	}
	return bytes.TrimSpace(t), true
}

// unprose drops words before the JSON.
func unprose(b []byte) ([]byte, bool) {
	i := bytes.IndexAny(b, "{[")
	if i <= 0 || !bytes.ContainsFunc(b[:i], func(r rune) bool { return r > ' ' }) {
		return nil, false
	}
	return b[i:], true
}

// unsingle reads single quotes as double quotes, in a text with no double quote.
func unsingle(b []byte) ([]byte, bool) {
	if bytes.IndexByte(b, '"') >= 0 || bytes.IndexByte(b, '\'') < 0 {
		return nil, false
	}
	return bytes.ReplaceAll(b, []byte("'"), []byte(`"`)), true
}

// untruncate reports whether b is the beginning of a JSON text: reading it ends at its end.
func untruncate(b []byte) ([]byte, bool) {
	var v any
	err := json.Unmarshal(b, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset >= int64(len(bytes.TrimRight(b, " \t\r\n"))) {
		return nil, true
	}
	return nil, false
}
