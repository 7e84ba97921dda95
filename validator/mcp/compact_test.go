package mcp

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// compactTexts are argument texts as distortions write them, and shapes appendCompact must
// leave to encoding/json.
var compactTexts = []string{
	`{"path":"/tmp/a b","recursive":true,"depth":3,"tags":["x","y"],"n":null}`,
	" {\n  \"a\" : [ 1 , -2.5e+3 , 0 , 0.125E-2 , false ] ,\t\"b\":{ } , \"c\":[ ]\r\n} ",
	`{"s":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00 café"}`,
	`[[[[1]]],{"a":{"b":{"c":[]}}}]`,
	`"just a string"`,
	`-0`,
	`12`,
	`{"a":01}`,
	`{"a":1.}`,
	`{"a":.5}`,
	`{"a":1e}`,
	`{"a":"\x"}`,
	`{"a":"\u12g4"}`,
	`{"a" 1}`,
	`{"a":1,}`,
	`[1,]`,
	`{a:1}`,
	`{"a":1}}`,
	`{"a":1} x`,
	`tru`,
	`nul`,
	``,
	`   `,
	`{"a":"b` + "\t" + `"}`,
}

// deepTexts are nested as deep as json.Compact takes, and one level deeper.
var deepTexts = []string{
	`{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	`{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	strings.Repeat(`{"a":`, 10000) + `1` + strings.Repeat("}", 10000),
	strings.Repeat(`{"a":`, 10001) + `1` + strings.Repeat("}", 10001),
}

// TestAppendCompact: where appendCompact reads a text, json.Compact accepts it and gives the
// same bytes; it reads the common shapes; and over many distorted texts it never disagrees.
func TestAppendCompact(t *testing.T) {
	fast := 0
	check := func(text string) {
		t.Helper()
		got, ok := appendCompact([]byte("prefix"), []byte(text))
		if !ok {
			return
		}
		fast++
		var want bytes.Buffer
		want.WriteString("prefix")
		if err := json.Compact(&want, []byte(text)); err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q:\nappendCompact %q\njson.Compact  %q, %v", text, got, want.Bytes(), err)
		}
	}
	for _, text := range compactTexts[:7] {
		if _, ok := appendCompact(nil, []byte(text)); !ok {
			t.Errorf("appendCompact does not read %s", text)
		}
	}
	for _, text := range append(compactTexts, deepTexts...) {
		check(text)
	}
	for _, text := range deepTexts[:1] {
		if _, ok := appendCompact(nil, []byte(text)); !ok {
			t.Errorf("appendCompact does not read %.40s... (%d bytes)", text, len(text))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte(`{}[]",:\ tnrufeal0123456789.-+eEbu/` + "\t\n\r\x00\x1f")
	for i := 0; i < 200000; i++ {
		b := []byte(compactTexts[rng.IntN(len(compactTexts))])
		b = distort(rng, b, alphabet)
		check(string(b))
	}
	if fast < 10000 {
		t.Errorf("appendCompact read only %d texts", fast)
	}
	t.Logf("appendCompact read %d texts", fast)
}
