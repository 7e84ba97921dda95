package jsonvalue

import "strconv"

// Offsets returns, for each JSON Pointer in ptrs, where the JSON text data writes what it names:
// the byte offset of the member's key when its last token names an object member, else of the
// value (an array item, the whole document); -1 for a pointer data does not hold. It reads data
// once with Parse's grammar, entering only the values on the way to the pointers and stopping
// when all are found, so data need be JSON only that far; a repeated key counts where it first
// appears.
func Offsets(data []byte, ptrs []string) []int {
	out := make([]int, len(ptrs))
	l := locator{parser: parser{data: data}, want: map[string][]int{}, below: map[string]bool{}}
	for i, p := range ptrs {
		out[i] = -1
		toks, err := SplitPointer(p)
		if err != nil {
			continue
		}
		p = Pointer(toks) // the canonical form, as the walk spells it
		l.want[p] = append(l.want[p], i)
		for k := range toks {
			l.below[Pointer(toks[:k])] = true
		}
	}
	l.out, l.left = out, len(l.want)
	l.skipSpace()
	l.found("", l.pos)
	l.walk("", 0)
	return out
}

// locator is the walk of Offsets: the pointers it looks for (want, to their indices in out),
// the places some of them lie below (below), and how many are still to find (left).
type locator struct {
	parser
	want  map[string][]int
	below map[string]bool
	out   []int
	left  int
}

// found records that the pointer at is written at offset off, if it is one looked for.
func (l *locator) found(at string, off int) {
	is, ok := l.want[at]
	if !ok || l.out[is[0]] >= 0 {
		return
	}
	for _, i := range is {
		l.out[i] = off
	}
	l.left--
}

// walk reads the value at p.pos, whose pointer is at: a container some pointer lies in is
// entered, any other value skipped. It reports false when the walk is over: all found, or the
// text is not JSON there.
func (l *locator) walk(at string, depth int) bool {
	if l.left == 0 {
		return false
	}
	if !l.below[at] || l.pos >= len(l.data) || depth >= MaxDepth || (l.data[l.pos] != '{' && l.data[l.pos] != '[') {
		_, err := l.value(depth)
		return err == nil
	}
	object, close := l.data[l.pos] == '{', byte(']')
	if object {
		close = '}'
	}
	l.pos++
	l.skipSpace()
	if l.pos < len(l.data) && l.data[l.pos] == close {
		l.pos++
		return true
	}
	for i := 0; ; i++ {
		l.skipSpace()
		child, off := at+"/"+strconv.Itoa(i), l.pos
		if object {
			if l.pos >= len(l.data) || l.data[l.pos] != '"' {
				return false
			}
			key, err := l.key()
			if err != nil {
				return false
			}
			child = at + "/" + EscapeToken(key)
			if l.skipSpace(); l.pos >= len(l.data) || l.data[l.pos] != ':' {
				return false
			}
			l.pos++
			l.skipSpace()
		}
		l.found(child, off)
		if !l.walk(child, depth+1) {
			return false
		}
		if more, err := l.next(close, "value"); err != nil || !more {
			return err == nil
		}
	}
}

// LineStarts returns the byte offset at which each line of data begins, the first at 0: a
// line ends at '\n', so line n (1-based) of an offset found by Offsets is the last start at or
// before it.
func LineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}
