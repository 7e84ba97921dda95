package mcp

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// A line over MaxMessageSize is an error naming the limit, read without holding it whole.
func TestMessageOverTheLimit(t *testing.T) {
	r := bufio.NewReaderSize(io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0"}`+"\n"),
		io.LimitReader(zeros{}, MaxMessageSize+1)), 64*1024)
	line, err := readMessage(r)
	if err != nil || string(line) != `{"jsonrpc":"2.0"}`+"\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	if _, err := readMessage(r); !errors.Is(err, errMessageTooLong) ||
		!strings.Contains(err.Error(), "mcp.MaxMessageSize") {
		t.Fatalf("err = %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}
