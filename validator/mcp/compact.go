package mcp

import "github.com/toolproof/toolproof/internal/jsonvalue"

// appendCompact appends src, one JSON value nested at most maxCompactDepth deep, to dst less
// its insignificant white space, checking it as it goes. ok is false for any other text (dst is
// then to be discarded): encoding/json's Compact, the reference, is left to say what is wrong.
// Whenever ok is true, json.Compact accepts src and appends the same bytes.
func appendCompact(dst, src []byte) (out []byte, ok bool) {
	c := compactor{src: src, out: dst}
	var closers [64]byte
	open := closers[:0] // the closing bytes of the arrays and objects around c.i
	for {
		c.space()
		if c.i == len(c.src) {
			return nil, false
		}
		switch b := c.src[c.i]; b {
		case '{', '[':
			if len(open) == maxCompactDepth {
				return nil, false
			}
			open = append(open, b+2) // '{'+2 is '}', '['+2 is ']'
			c.out = append(c.out, b)
			c.i++
			if c.punct(b + 2) {
				open = open[:len(open)-1]
				break
			}
			if b == '{' && !c.key() {
				return nil, false
			}
			continue
		default:
			if !c.scalar() {
				return nil, false
			}
		}
		// After a value: close what it ends, then go on to the next member, if any.
		for len(open) > 0 && c.punct(open[len(open)-1]) {
			open = open[:len(open)-1]
		}
		if len(open) == 0 {
			c.space()
			return c.out, c.i == len(src)
		}
		if !c.punct(',') || open[len(open)-1] == '}' && !c.key() {
			return nil, false
		}
	}
}

// maxCompactDepth is how deep appendCompact follows arrays and objects: as deep as json.Compact
// does (encoding/json's maxNestingDepth).
const maxCompactDepth = 10000

// compactor copies the tokens of src to out, white space left out.
type compactor struct {
	src, out []byte
	i        int
}

func (c *compactor) space() {
	src, i := c.src, c.i
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	c.i = i
}

// key copies an object's member name and its colon, after any white space.
func (c *compactor) key() bool {
	c.space()
	return c.i < len(c.src) && c.src[c.i] == '"' && c.str() && c.punct(':')
}

// scalar copies a string, a number, true, false or null at c.i.
func (c *compactor) scalar() bool {
	switch b := c.src[c.i]; {
	case b == '"':
		return c.str()
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(c.src)-c.i >= len(lit) && string(c.src[c.i:c.i+len(lit)]) == lit {
			c.out = append(c.out, lit...)
			c.i += len(lit)
			return true
		}
	}
	return false
}

// punct copies p after any white space.
func (c *compactor) punct(p byte) bool {
	c.space()
	if c.i == len(c.src) || c.src[c.i] != p {
		return false
	}
	c.out = append(c.out, p)
	c.i++
	return true
}

// str copies a string as written; its escapes are checked, not decoded.
func (c *compactor) str() bool {
	src, start := c.src, c.i
	for i := start + 1; i < len(src); i++ {
		b := src[i]
		if b >= 0x20 && b != '"' && b != '\\' {
			continue
		}
		switch {
		case b == '"':
			c.i = i + 1
			c.out = append(c.out, src[start:i+1]...)
			return true
		case b < 0x20 || i+1 == len(src):
			return false
		}
		i++
		switch src[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			for range 4 {
				if i++; i == len(src) || !isHex(src[i]) {
					return false
				}
			}
		default:
			return false
		}
	}
	return false
}

// number copies the JSON number at c.i, read by jsonvalue.ScanNumber.
func (c *compactor) number() bool {
	end, msg := jsonvalue.ScanNumber(c.src, c.i)
	if msg != "" {
		return false
	}
	c.out = append(c.out, c.src[c.i:end]...)
	c.i = end
	return true
}

func isHex(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}
