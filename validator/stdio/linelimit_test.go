package stdio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// A line over MaxLineSize is read and dropped without being held: readLine says so (naming the
// limit) and the next line reads as usual.
func TestLineOverTheLimitIsDropped(t *testing.T) {
	huge := io.MultiReader(io.LimitReader(repeatReader('x'), MaxLineSize+ioBuffer*3),
		strings.NewReader("\n{\"op\":\"hello\"}\n"))
	r := bufio.NewReaderSize(huge, ioBuffer)
	var buf []byte
	line, _, err := readLine(r, &buf)
	var tl errLineTooLong
	if !errors.As(err, &tl) || line != nil || !strings.Contains(err.Error(), "stdio.MaxLineSize") {
		t.Fatalf("line %d bytes, err %v", len(line), err)
	}
	if cap(buf) > 2*MaxLineSize {
		t.Errorf("held %d bytes", cap(buf))
	}
	line, _, err = readLine(r, &buf)
	if err != nil || !bytes.Equal(line, []byte("{\"op\":\"hello\"}\n")) {
		t.Fatalf("next line %q, %v", line, err)
	}
}

type repeatReader byte

func (b repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}
