package mcp

// appendCompact appends src, one JSON value, to dst less its insignificant white space, for the
// plain texts it reads without a state machine: ASCII-only white space, values nested at most
// maxCompactDepth deep. ok is false for anything else, invalid or not (dst is then to be
// discarded): encoding/json's Compact, the reference, decides those. Whenever ok is true,
// json.Compact accepts src and appends the same bytes.
func appendCompact(dst, src []byte) (out []byte, ok bool) {
	c := compactor{src: src, out: dst}
	if !c.value(0) {
		return nil, false
	}
	c.space()
	return c.out, c.i == len(src)
}

// maxCompactDepth is how deep appendCompact follows arrays and objects.
const maxCompactDepth = 512

// compactor copies the tokens of src to out, white space left out.
type compactor struct {
	src, out []byte
	i        int
}

func (c *compactor) space() {
	for c.i < len(c.src) {
		switch c.src[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// value copies one value after any white space.
func (c *compactor) value(depth int) bool {
	c.space()
	if c.i == len(c.src) {
		return false
	}
	switch b := c.src[c.i]; {
	case b == '"':
		return c.str()
	case b == '{' || b == '[':
		return depth < maxCompactDepth && c.composite(depth, b)
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if len(c.src)-c.i >= len(lit) && string(c.src[c.i:c.i+len(lit)]) == lit {
				c.out = append(c.out, lit...)
				c.i += len(lit)
				return true
			}
		}
		return false
	}
}

// composite copies an object or an array, open being its first byte.
func (c *compactor) composite(depth int, open byte) bool {
	end := byte(']')
	if open == '{' {
		end = '}'
	}
	c.out = append(c.out, open)
	c.i++
	c.space()
	if c.i < len(c.src) && c.src[c.i] == end {
		c.out = append(c.out, end)
		c.i++
		return true
	}
	for {
		if open == '{' {
			c.space()
			if c.i == len(c.src) || c.src[c.i] != '"' || !c.str() || !c.punct(':') {
				return false
			}
		}
		if !c.value(depth + 1) {
			return false
		}
		c.space()
		if c.i == len(c.src) {
			return false
		}
		switch c.src[c.i] {
		case ',':
			c.out = append(c.out, ',')
			c.i++
		case end:
			c.out = append(c.out, end)
			c.i++
			return true
		default:
			return false
		}
	}
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
	start := c.i
	for c.i++; c.i < len(c.src); c.i++ {
		switch b := c.src[c.i]; {
		case b == '"':
			c.i++
			c.out = append(c.out, c.src[start:c.i]...)
			return true
		case b < 0x20:
			return false
		case b == '\\':
			if c.i+1 == len(c.src) {
				return false
			}
			c.i++
			switch c.src[c.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if _, ok := hex4(c.src[c.i-1:]); !ok {
					return false
				}
				c.i += 4
			default:
				return false
			}
		}
	}
	return false
}

// number copies -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (c *compactor) number() bool {
	start := c.i
	if c.src[c.i] == '-' {
		c.i++
	}
	switch {
	case c.i < len(c.src) && c.src[c.i] == '0':
		c.i++
	case c.digits() == 0:
		return false
	}
	if c.i < len(c.src) && c.src[c.i] == '.' {
		c.i++
		if c.digits() == 0 {
			return false
		}
	}
	if c.i < len(c.src) && (c.src[c.i] == 'e' || c.src[c.i] == 'E') {
		c.i++
		if c.i < len(c.src) && (c.src[c.i] == '+' || c.src[c.i] == '-') {
			c.i++
		}
		if c.digits() == 0 {
			return false
		}
	}
	c.out = append(c.out, c.src[start:c.i]...)
	return true
}

// digits skips the digits at c.i and says how many there were.
func (c *compactor) digits() int {
	start := c.i
	for c.i < len(c.src) && c.src[c.i] >= '0' && c.src[c.i] <= '9' {
		c.i++
	}
	return c.i - start
}
