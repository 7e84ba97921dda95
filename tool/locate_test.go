package tool

import "testing"

func TestLocate(t *testing.T) {
	data := []byte("[\n  {\"name\": \"read\", \"parameters\": {}},\n  {\"type\": \"function\", \"function\": {\n    \"name\":\"read\"}},\n  {\"name\": \"a\\\"b\"}\n]\n")
	for _, c := range []struct {
		name      string
		line, col int
		ok        bool
	}{
		{"read", 2, 4, true},
		{"read__2", 4, 5, true},
		{"read__3", 0, 0, false},
		{`a"b`, 5, 4, true},
		{"write", 0, 0, false},
	} {
		line, col, ok := Locate(data, c.name)
		if line != c.line || col != c.col || ok != c.ok {
			t.Errorf("Locate(%q) = %d, %d, %v; want %d, %d, %v", c.name, line, col, ok, c.line, c.col, c.ok)
		}
	}
}
