package jsonvalue

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestParseStrictGrammar(t *testing.T) {
	for _, tc := range []struct {
		in      string
		ok      bool
		pointer string // where the error is, for invalid input
	}{
		{`{"a":[1,2.5,-0,1e3,true,false,null,"x\u00e9\ud83d\ude00"]}`, true, ""},
		{` {"a" : 1 } `, true, ""},
		{`{"a":1,}`, false, ""},
		{`[1,2,]`, false, ""},
		{`{'a':1}`, false, ""},
		{`{"a":True}`, false, "/a"},
		{`{"a":NaN}`, false, "/a"},
		{`{"a":01}`, false, ""},
		{`{"a":1.}`, false, "/a"},
		{`{"a":.5}`, false, "/a"},
		{`{"a":+1}`, false, "/a"},
		{`{"a":1} x`, false, ""},
		{`{"a":1,"a":2}`, false, "/a"},
		{"\ufeff{}", false, ""},
		{"{\"a\":\"\xff\"}", false, "/a"},
		{"{\"a\":\"\t\"}", false, "/a"},
		{`{"a":"\x"}`, false, "/a"},
		{`{"a":[{"b":[1,{"c":tru}]}]}`, false, "/a/0/b/1/c"},
		{`/* c */ {}`, false, ""},
		{``, false, ""},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), false, ""},
		{strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), true, ""},
	} {
		_, err := Parse([]byte(tc.in))
		if (err == nil) != tc.ok {
			t.Errorf("%.60q: err = %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		var se *SyntaxError
		if err != nil && tc.pointer != "" && (!errors.As(err, &se) || se.Pointer != tc.pointer) {
			t.Errorf("%q: error %v, want it at %q", tc.in, err, tc.pointer)
		}
	}
}

func TestNumbersStayExact(t *testing.T) {
	v, err := Parse([]byte(`{"big":123456789012345678901234567890,"f":0.1000000000000000055511151231257827}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(MustMarshal(v)); got != `{"big":123456789012345678901234567890,`+
		`"f":0.1000000000000000055511151231257827}` {
		t.Fatalf("numbers changed: %s", got)
	}
	if !Equal(json.Number("1.0"), json.Number("1")) || !Equal(json.Number("1e2"), json.Number("100")) ||
		Equal(json.Number("1"), "1") {
		t.Fatal("JSON equality of numbers")
	}
	if !IsInteger("1.0") || !IsInteger("1e2") || IsInteger("1.5") {
		t.Fatal("IsInteger")
	}
}

func TestPointers(t *testing.T) {
	toks := []string{"a/b", "~c", "", "0"}
	p := Pointer(toks)
	if p != "/a~1b/~0c//0" {
		t.Fatalf("Pointer = %q", p)
	}
	back, err := SplitPointer(p)
	if err != nil || !cmp.Equal(back, toks) {
		t.Fatalf("SplitPointer = %q, %v", back, err)
	}
	v := map[string]any{"a/b": map[string]any{"~c": map[string]any{"": []any{"x"}}}}
	if got, ok := Get(v, p); !ok || got != "x" {
		t.Fatalf("Get = %v %v", got, ok)
	}
	if !IsPrefix("/a", "/a/b") || IsPrefix("/a", "/ab") || !IsPrefix("", "/x") ||
		Parent("/a/b") != "/a" || Parent("/a") != "" {
		t.Fatal("IsPrefix/Parent")
	}
}

// What Parse accepts, encoding/json accepts too, with the same value; Marshal then Parse gives
// the value back.
func TestParseAgreesWithEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue(3).Draw(t, "v")
		b := MustMarshal(v)
		got, err := Parse(b)
		if err != nil {
			t.Fatalf("Parse(%s): %v", b, err)
		}
		if !Equal(got, v) {
			t.Fatalf("round trip: %s", b)
		}
		d := json.NewDecoder(strings.NewReader(string(b)))
		d.UseNumber()
		var std any
		if err := d.Decode(&std); err != nil {
			t.Fatalf("encoding/json rejects %s: %v", b, err)
		}
		if !Equal(std, got) {
			t.Fatalf("encoding/json reads %s differently", b)
		}
	})
}

func jsonValue(depth int) *rapid.Generator[any] {
	scalars := []*rapid.Generator[any]{
		rapid.Just[any](nil), rapid.Bool().AsAny(), rapid.String().AsAny(),
		rapid.Map(rapid.Int64(), func(i int64) any {
			return json.Number(json.Number(strings.TrimSpace(strings.ReplaceAll(string(MustMarshal(i)), " ", ""))))
		}),
	}
	if depth == 0 {
		return rapid.OneOf(scalars...)
	}
	inner := jsonValue(depth - 1)
	return rapid.OneOf(append(scalars,
		rapid.Map(rapid.SliceOfN(inner, 0, 4), func(s []any) any { return s }),
		rapid.Map(rapid.MapOfN(rapid.String(), inner, 0, 4), func(m map[string]any) any { return m }),
	)...)
}

// ParseKeys reads the same values as Parse, whatever the key table holds.
func TestParseKeysAgreesWithParse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue(3).Draw(t, "v")
		b := MustMarshal(v)
		keys := map[string]string{"a": "a", "": "", "é": "é"}
		for _, k := range rapid.SliceOf(rapid.String()).Draw(t, "keys") {
			keys[k] = k
		}
		want, err1 := Parse(b)
		got, err2 := ParseKeys(b, keys)
		if err1 != nil || err2 != nil || !Equal(want, got) {
			t.Fatalf("%s: %v %v", b, err1, err2)
		}
	})
	for _, bad := range []string{`{"a":1,"a":2}`, `{"a" 1}`, `{"a`} {
		if _, err := ParseKeys([]byte(bad), map[string]string{"a": "a"}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestRatText(t *testing.T) {
	for in, want := range map[string]string{"1/2": "0.5", "-3/40": "-0.075", "7": "7", "1/100": "0.01",
		"1001/1000": "1.001"} {
		r, _ := new(big.Rat).SetString(in)
		if got := RatText(r); got != want {
			t.Errorf("RatText(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestBinary64(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"20", "20"},
		{"9007199254740993", "9007199254740992"},
		{"10000000000000000000.5", "10000000000000000000"},
		{"0.5", "0.5"},
		{"0.1", "0.1000000000000000055511151231257827021181583404541015625"},
		{"-0.07", "-0.070000000000000006661338147750939242541790008544921875"},
		{"1e400", ""},
		{"-1e400", ""},
		{"1e-400", "0"},
		{"-0", "-0"},
		{"-53.000", "-53.000"}, // a whole number a double holds: as written
		{"1234567890123456.0", "1234567890123456"},
		{"53.5e0", "53.5"},
	} {
		got, ok := Binary64(json.Number(tc.in))
		if tc.want == "" {
			if ok {
				t.Errorf("Binary64(%s) = %s, want beyond every double", tc.in, got)
			}
			continue
		}
		if !ok || string(got) != tc.want {
			t.Errorf("Binary64(%s) = %s, %v; want %s", tc.in, got, ok, tc.want)
		}
	}
	v := map[string]any{"a": json.Number("1"), "b": []any{json.Number("9007199254740993"), "x"}}
	r, ok := RoundBinary64(v)
	if !ok {
		t.Fatal("RoundBinary64 failed")
	}
	want := map[string]any{"a": json.Number("1"), "b": []any{json.Number("9007199254740992"), "x"}}
	if !Equal(r, want) || !Equal(v["b"].([]any)[0], json.Number("9007199254740993")) {
		t.Errorf("RoundBinary64 = %v (input now %v)", r, v)
	}
	if _, ok := RoundBinary64([]any{json.Number("2e308")}); ok {
		t.Error("RoundBinary64 accepted a number beyond every double")
	}
}
