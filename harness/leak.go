package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/validator"
)

// minRepeated is the shortest argument value (in bytes) whose repetition in a message counts as
// a leak: shorter ones ("a", "20", "ok") turn up in messages by chance.
const minRepeated = 4

// leaked finds a message of the gate that hands the model's own text back, and says where: the
// planted canary, or any argument value of the call (a string, or a number as written) of
// minRepeated bytes or more that the tool's schema does not hold itself (an enum value, a bound,
// a pattern, a property name). Naming the place and what was expected corrects the model;
// repeating what it sent is a leak (shared/seeds), whether the call was valid or not.
func leaked(c *corpus.Case, b basis, v validator.Verdict) (string, bool) {
	if len(v.Issues) == 0 {
		return "", false
	}
	if c.Canary != "" {
		for _, is := range v.Issues {
			if strings.Contains(is.Message, c.Canary) {
				return fmt.Sprintf("message at %q repeats the argument value: %q", is.Path, is.Message), true
			}
		}
	}
	schema := b.schema
	if schema == nil {
		schema = newSchemaText(nil) // a basis made without a tool (tests)
	}
	if value, is, ok := repeatedValue(c.Args, schema, v.Issues); ok {
		return fmt.Sprintf("message at %q repeats the argument value %q: %q", is.Path, value, is.Message), true
	}
	return "", false
}

// repeatedValue is the first value of the arguments text args that a message of issues holds
// and that only the model can have written: a string or a number (as written) of minRepeated
// bytes or more with a letter or digit, neither true, false nor null, and not found in the tool's
// schema text. Values come in document order, object members by key, and the issue is the first
// whose message holds the value, so that a report names the same value on every run. Text that
// is not JSON has none. Whether a message holds a value is asked first: it is the cheap question,
// and the answer is almost always no.
func repeatedValue(args []byte, schema *schemaText, issues []validator.Issue) (string, validator.Issue, bool) {
	if !mayRepeat(args, issues) {
		return "", validator.Issue{}, false
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return "", validator.Issue{}, false
	}
	var walk func(any) (string, validator.Issue, bool)
	walk = func(v any) (string, validator.Issue, bool) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if s, is, ok := walk(v[k]); ok {
					return s, is, true
				}
			}
		case []any:
			for _, e := range v {
				if s, is, ok := walk(e); ok {
					return s, is, true
				}
			}
		case string:
			s := strings.TrimSpace(v)
			if is, ok := holding(issues, s); ok && schema.ownText(s) {
				return s, is, true
			}
		case json.Number:
			s := string(v)
			if is, ok := holding(issues, s); ok && schema.ownText(s) && !schema.numbers[exact(s)] {
				return s, is, true
			}
		}
		return "", validator.Issue{}, false
	}
	return walk(v)
}

// holding is the first issue whose message holds s as a whole word, when s has minRepeated
// bytes or more.
func holding(issues []validator.Issue, s string) (validator.Issue, bool) {
	if len(s) < minRepeated {
		return validator.Issue{}, false
	}
	for _, is := range issues {
		if containsWord(is.Message, s) {
			return is, true
		}
	}
	return validator.Issue{}, false
}

// containsWord says whether msg holds s not as a part of a longer word: where s begins (ends)
// with a letter or digit, the character before (after) it is none. A value "allow" is not
// repeated by "must match exactly one of the allowed shapes".
func containsWord(msg, s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	for from := 0; ; {
		i := strings.Index(msg[from:], s)
		if i < 0 {
			return false
		}
		at := from + i
		before, _ := utf8.DecodeLastRuneInString(msg[:at])
		after, _ := utf8.DecodeRuneInString(msg[at+len(s):])
		if !(wordRune(first) && at > 0 && wordRune(before)) &&
			!(wordRune(last) && at+len(s) < len(msg) && wordRune(after)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(msg[at:])
		from = at + size
	}
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// mayRepeat says whether a message of issues may hold a value of the arguments text args: it
// reads the text's strings (keys left out) and numbers as repeatedValue's decoded walk would see
// them, without building the value, and says no only when no message holds any of them. Building
// the value costs more than the rest of judging a verdict, and most verdicts repeat nothing.
func mayRepeat(args []byte, issues []validator.Issue) bool {
	held := func(s string) bool {
		_, ok := holding(issues, s)
		return ok
	}
	for i := 0; i < len(args); {
		switch c := args[i]; {
		case c == '"':
			end, plain := stringEnd(args, i)
			if next := skipSpace(args, end); next < len(args) && args[next] == ':' {
				i = next + 1 // a key
				continue
			}
			if plain && end-2-i < minRepeated {
				i = end // too short to count, and a plain string decodes to its own bytes
				continue
			}
			text := string(args[i+1 : max(end-1, i+1)])
			if !plain && json.Unmarshal(args[i:end], &text) != nil {
				return true // not JSON here: the decoded walk decides
			}
			if held(strings.TrimSpace(text)) {
				return true
			}
			i = end
		case c == '-' || c >= '0' && c <= '9':
			end := i + 1
			for end < len(args) && strings.IndexByte("+-.eE0123456789", args[end]) >= 0 {
				end++
			}
			if end-i >= minRepeated && held(string(args[i:end])) {
				return true
			}
			i = end
		default:
			i++
		}
	}
	return false
}

// stringEnd is the offset just past the JSON string that opens at args[start], and whether its
// text stands in it as it decodes: no escape, valid UTF-8, closed.
func stringEnd(args []byte, start int) (end int, plain bool) {
	plain = true
	for end = start + 1; end < len(args); end++ {
		switch args[end] {
		case '\\':
			plain = false
			end++
		case '"':
			return end + 1, plain && utf8.Valid(args[start+1:end])
		}
	}
	return len(args), false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// maxExponent bounds the exponents exact reads: 1e400 is read, 1e999999999 is not.
const maxExponent = 1000

// schemaText is a tool's schema as the leak check reads it, made once a tool: its text, and the
// exact value (exact) of every number in it, so that a bound a message names is not taken for
// the value it equals, however each is written (1e20 and 100000000000000000000).
type schemaText struct {
	text    []byte
	numbers map[string]bool
}

func newSchemaText(schema []byte) *schemaText {
	return &schemaText{text: schema, numbers: schemaNumbers(schema)}
}

func schemaNumbers(schema []byte) map[string]bool {
	out := map[string]bool{}
	d := json.NewDecoder(bytes.NewReader(schema))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		if n, ok := tok.(json.Number); ok {
			out[exact(string(n))] = true
		}
	}
}

// exact is a JSON number's value in one canonical form; a number with an exponent beyond
// ±maxExponent (whose exact value would take that many digits) stays as written.
func exact(n string) string {
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimPrefix(n[i+1:], "+")); err != nil || e > maxExponent || e < -maxExponent {
			return n
		}
	}
	r, ok := new(big.Rat).SetString(n)
	if !ok {
		return n
	}
	return r.RatString()
}

// ownText says whether s is long enough to be the model's own, and not the schema's.
func (schema *schemaText) ownText(s string) bool {
	if len(s) < minRepeated ||
		!strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null":
		return false
	}
	if bytes.Contains(schema.text, []byte(s)) {
		return false
	}
	q, _ := json.Marshal(s)
	return !bytes.Contains(schema.text, q[1:len(q)-1])
}
