package jsonvalue

import "testing"

// TestScannerUint: the integers Uint takes, and those it leaves to a full parser.
func TestScannerUint(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want uint64
		ok   bool
	}{
		{" 0", 19, 0, true},
		{"42,", 19, 42, true},
		{"\t\n 7}", 19, 7, true},
		{"1234567890123456789", 19, 1234567890123456789, true},
		{"12345678901234567890", 19, 0, false}, // 20 digits
		{"1234567890123456789", 18, 0, false},
		{"123456789012345678", 18, 123456789012345678, true},
		{"05", 19, 0, false},
		{"-5", 19, 0, false},
		{"5.0", 19, 0, false},
		{"5e1", 19, 0, false},
		{"5E1", 19, 0, false},
		{"", 19, 0, false},
		{"x", 19, 0, false},
	} {
		s := Scanner{B: []byte(c.in)}
		got, ok := s.Uint(c.max)
		if got != c.want || ok != c.ok {
			t.Errorf("Uint(%d) of %q = %d, %v; want %d, %v", c.max, c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestScannerTokens: Byte, Bool and End over one message.
func TestScannerTokens(t *testing.T) {
	s := Scanner{B: []byte(" { true ,false } \r\n")}
	if !s.Byte('{') || s.Byte('}') {
		t.Fatal("Byte")
	}
	if v, ok := s.Bool(); !v || !ok {
		t.Fatal("Bool true")
	}
	if !s.Byte(',') {
		t.Fatal("Byte ,")
	}
	if v, ok := s.Bool(); v || !ok {
		t.Fatal("Bool false")
	}
	if _, ok := s.Bool(); ok {
		t.Fatal("Bool of }")
	}
	if s.End() || !s.Byte('}') || !s.End() {
		t.Fatal("End")
	}
}
