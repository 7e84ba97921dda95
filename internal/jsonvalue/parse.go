package jsonvalue

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects Parse accepts.
const MaxDepth = 1000

// maxDepthPointer is how many steps of the path a too-deep nesting is reported at.
const maxDepthPointer = 8

// SyntaxError reports why a text is not a single JSON value. Its message never quotes the
// text itself, only the byte offset and the JSON Pointer of the value being read.
type SyntaxError struct {
	Offset  int    // byte offset of the problem
	Pointer string // JSON Pointer of the value being read when the problem was found
	Msg     string // what is wrong
}

func (e *SyntaxError) Error() string {
	if e.Pointer == "" {
		return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.Msg)
	}
	return fmt.Sprintf("invalid JSON at byte %d (in %s): %s", e.Offset, e.Pointer, e.Msg)
}

// Parse decodes exactly one JSON value from data under the RFC 8259 grammar: UTF-8 only, no
// byte order mark, no comments, no trailing commas, no NaN, no single quotes, no trailing data.
// Objects with a repeated key are rejected too (RFC 8259 leaves them undefined).
func Parse(data []byte) (any, error) {
	return ParseKeys(data, nil)
}

// ParseKeys is Parse with a table of expected object keys (such as a schema's property names):
// a key found in it reuses the table's string instead of allocating one. The table is only read.
func ParseKeys(data []byte, keys map[string]string) (any, error) {
	p := parser{data: data, keys: keys}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.errorf("unexpected data after the top-level value")
	}
	return v, nil
}

// Valid reports whether data is exactly one JSON value under the same rules as Parse.
func Valid(data []byte) bool {
	_, err := Parse(data)
	return err == nil
}

type parser struct {
	data []byte
	keys map[string]string // known keys, reused rather than allocated
	pos  int
	path []step // where the parser is, kept cheaply and written out only for an error
	buf  []byte
}

// step is one token of the parser's location: an object key or an array index.
type step struct {
	key   string
	index int // -1 for a key
}

func (p *parser) errorf(format string, args ...any) error {
	return p.errorAt(len(p.path), format, args...)
}

// errorAt is errorf with the pointer cut to the first n steps of the path (an ancestor of where
// the parser is): a nesting 1,000 deep is reported at its outer levels, not by a pointer of a
// thousand steps built for every such text.
func (p *parser) errorAt(n int, format string, args ...any) error {
	toks := make([]string, min(n, len(p.path)))
	for i, st := range p.path[:len(toks)] {
		if st.index >= 0 {
			toks[i] = strconv.Itoa(st.index)
		} else {
			toks[i] = st.key
		}
	}
	return &SyntaxError{Offset: p.pos, Pointer: Pointer(toks), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		if depth >= MaxDepth {
			return nil, p.errorAt(maxDepthPointer, "nesting deeper than %d", MaxDepth)
		}
		return p.object(depth + 1)
	case c == '[':
		if depth >= MaxDepth {
			return nil, p.errorAt(maxDepthPointer, "nesting deeper than %d", MaxDepth)
		}
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == 0xEF && p.pos == 0:
		return nil, p.errorf("byte order mark before the value")
	default:
		return nil, p.errorf("unexpected character %s", describeByte(c))
	}
}

func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("0x%02x", c)
}

func (p *parser) literal(word string) error {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return p.errorf("invalid literal (expected %s)", word)
	}
	p.pos += len(word)
	return nil
}

func (p *parser) object(depth int) (any, error) {
	p.pos++ // {
	obj := map[string]any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return obj, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unexpected end of input in object")
		}
		if p.data[p.pos] != '"' {
			if p.data[p.pos] == '}' {
				return nil, p.errorf("trailing comma in object")
			}
			return nil, p.errorf("expected a string key, found %s", describeByte(p.data[p.pos]))
		}
		keyPos := p.pos
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		if _, dup := obj[key]; dup {
			p.pos = keyPos
			p.path = append(p.path, step{key: key, index: -1})
			err := p.errorf("duplicate key")
			p.path = p.path[:len(p.path)-1]
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("expected ':' after object key")
		}
		p.pos++
		p.skipSpace()
		v, err := p.member(step{key: key, index: -1}, depth)
		if err != nil {
			return nil, err
		}
		obj[key] = v
		if more, err := p.next('}', "object"); err != nil || !more {
			return ended(obj, err)
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	p.pos++ // [
	arr := []any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return arr, nil
	}
	for i := 0; ; i++ {
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			return nil, p.errorf("trailing comma in array")
		}
		v, err := p.member(step{index: i}, depth)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		if more, err := p.next(']', "array"); err != nil || !more {
			return ended(arr, err)
		}
	}
}

// ended is what a container's parse returns at its end: v, or nothing with an error.
func ended(v any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// member parses the value of a member of an object or array, at the step below the path.
func (p *parser) member(at step, depth int) (any, error) {
	p.path = append(p.path, at)
	v, err := p.value(depth)
	if err != nil {
		return nil, err // the path stays: it says where the error is
	}
	p.path = p.path[:len(p.path)-1]
	return v, nil
}

// next reads what follows a member of an object or array: a comma (more: true) or the closing
// byte; an error when it is neither.
func (p *parser) next(close byte, in string) (more bool, err error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return false, p.errorf("unexpected end of input in %s", in)
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return true, nil
	case close:
		p.pos++
		return false, nil
	}
	return false, p.errorf("expected ',' or '%c' in %s, found %s", close, in, describeByte(p.data[p.pos]))
}

func (p *parser) number() (any, error) {
	start := p.pos
	end, msg := ScanNumber(p.data, p.pos)
	p.pos = end
	if msg != "" {
		return nil, p.errorf("%s", msg)
	}
	return json.Number(p.data[start:end]), nil
}

// ScanNumber reads the JSON number (RFC 8259's -?int frac? exp?) that starts at d[i]: where
// it ends, or where it goes wrong and what is wrong (msg non-empty). What follows the number is
// left to the caller: in "01" the number is "0".
func ScanNumber[T string | []byte](d T, i int) (end int, msg string) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return i, "invalid number"
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, "invalid number: digit expected after '.'"
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, "invalid number: digit expected in exponent"
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	return i, ""
}

// key reads an object key, taking a known key's string from the table when it has no escapes.
func (p *parser) key() (string, error) {
	if p.keys != nil {
		d := p.data
		for i := p.pos + 1; i < len(d); i++ {
			if c := d[i]; c == '"' {
				if k, ok := p.keys[string(d[p.pos+1:i])]; ok {
					p.pos = i + 1
					return k, nil
				}
				break
			} else if c == '\\' || c < 0x20 || c >= 0x80 {
				break
			}
		}
	}
	v, err := p.str()
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

func (p *parser) str() (any, error) {
	p.pos++ // opening quote
	start := p.pos
	d := p.data
	// Fast path: no escapes, ASCII or valid UTF-8.
	for i := p.pos; i < len(d); i++ {
		c := d[i]
		if c == '"' {
			s := d[start:i]
			if !utf8.Valid(s) {
				return nil, p.errorf("invalid UTF-8 in string")
			}
			p.pos = i + 1
			return string(s), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	b := p.buf[:0]
	i := start
	for {
		if i >= len(d) {
			p.pos = i
			return nil, p.errorf("unterminated string")
		}
		c := d[i]
		switch {
		case c == '"':
			p.pos = i + 1
			p.buf = b
			return string(b), nil
		case c < 0x20:
			p.pos = i
			return nil, p.errorf("control character 0x%02x in string", c)
		case c == '\\':
			var err error
			if b, i, err = p.escape(b, i+1); err != nil {
				return nil, err
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				p.pos = i
				return nil, p.errorf("invalid UTF-8 in string")
			}
			b = append(b, d[i:i+size]...)
			i += size
		}
	}
}

// unescaped is what each one-character escape stands for (0: not one).
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape appends to b what the escape whose character is at i (after the backslash) stands for,
// and returns where the string goes on.
func (p *parser) escape(b []byte, i int) ([]byte, int, error) {
	d := p.data
	if i >= len(d) {
		p.pos = i
		return nil, i, p.errorf("unterminated escape")
	}
	if c := unescaped[d[i]]; c != 0 {
		return append(b, c), i + 1, nil
	}
	if d[i] != 'u' {
		p.pos = i
		return nil, i, p.errorf("invalid escape character %s", describeByte(d[i]))
	}
	r, ok := hex4(d, i+1)
	if !ok {
		p.pos = i
		return nil, i, p.errorf("invalid \\u escape")
	}
	i += 5
	if utf16.IsSurrogate(r) {
		if r2, ok := lowSurrogate(d, i); ok {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				r = dec
				i += 6
			}
		}
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError // a lone surrogate: grammatical, but not a character
		}
	}
	return utf8.AppendRune(b, r), i, nil
}

func lowSurrogate(d []byte, i int) (rune, bool) {
	if i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
		return hex4(d, i+2)
	}
	return 0, false
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
