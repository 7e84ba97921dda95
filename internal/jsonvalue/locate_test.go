package jsonvalue

import (
	"slices"
	"strings"
	"testing"
)

// TestOffsets: members are found at their key, items and the root at their value, escaped
// keys by what they spell, and what the text does not hold (or holds only after broken JSON)
// at -1.
func TestOffsets(t *testing.T) {
	data := []byte(`[ {"name": "a", "parameters": {"type": "object", "properties": {"a/b": {"type": "string"}, ` +
		`"x": {}}}},
 {"na\u006de": "b", "list": [1, {"k": [true, null]}], "t~": 2}, "tail", {"bad": ]`)
	at := func(sub string, nth int) int {
		i := -1
		for range nth {
			i += 1 + strings.Index(string(data[i+1:]), sub)
		}
		return i
	}
	for _, c := range []struct {
		ptr  string
		want int
	}{
		{"", 0},
		{"/0", at("{", 1)},
		{"/0/name", at(`"name"`, 1)},
		{"/0/parameters/properties/a~1b", at(`"a/b"`, 1)},
		{"/0/parameters/properties/a~1b/type", at(`"type"`, 2)},
		{"/0/parameters/properties/x", at(`"x"`, 1)},
		{"/1/name", at(`"na\u006de"`, 1)},
		{"/1/list/1/k/1", at("null", 1)},
		{"/1/list/0", at("1,", 1)},
		{"/1/t~0", at(`"t~"`, 1)},
		{"/2", at(`"tail"`, 1)},
		{"/3/bad", at(`"bad"`, 1)},
		{"/3/bad/0", -1}, // the value is not JSON
		{"/4", -1},       // after the broken value
		{"/0/parameters/properties/y", -1},
		{"/1/list/2", -1},
		{"/1/list/x", -1},
		{"/0/name/0", -1}, // inside a string
		{"no slash", -1},
	} {
		got := Offsets(data, []string{c.ptr, "/0/name"})
		if got[0] != c.want {
			t.Errorf("Offsets(%q) = %d, want %d", c.ptr, got[0], c.want)
		}
	}
	// Many pointers at once, twice the same one, in any order.
	got := Offsets(data, []string{"/1/list/1/k/1", "/0/name", "/1/list/1/k/1", "/9"})
	if want := []int{at("null", 1), at(`"name"`, 1), at("null", 1), -1}; !slices.Equal(got, want) {
		t.Errorf("Offsets of several = %v, want %v", got, want)
	}
	if got := Offsets([]byte(" \n 42 "), []string{""}); got[0] != 3 {
		t.Errorf("the root after white space: %d, want 3", got[0])
	}
}
