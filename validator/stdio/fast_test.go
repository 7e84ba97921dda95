package stdio

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// fullResult is the reference reading of a result line.
func fullResult(line []byte) (uint64, any, bool) {
	v, err := jsonvalue.Parse(line)
	if err != nil {
		return 0, nil, false
	}
	m, ok := v.(map[string]any)
	if !ok || m["op"] != "result" {
		return 0, nil, false
	}
	id, ok := readID(m["id"])
	if !ok {
		return 0, nil, false
	}
	return id, verdictOf(m), true
}

func checkFast(t interface {
	Helper()
	Errorf(string, ...any)
}, line string) bool {
	t.Helper()
	id, v, ok := fastResult([]byte(line))
	if !ok {
		return false
	}
	var in interner
	for k := 0; k < 2; k++ { // strings and lists from an interner, new and then reused
		iid, iv, iok := fastResultIn([]byte(line), &in)
		if !iok || iid != id {
			t.Errorf("%q: with an interner: id %d, %v; without: %d", line, iid, iok, id)
		} else if d := cmp.Diff(v, iv); d != "" {
			t.Errorf("%q: (-without +with an interner):\n%s", line, d)
		}
	}
	wid, wv, wok := fullResult([]byte(line))
	if !wok {
		t.Errorf("%q: fast path accepts what the full parser rejects", line)
		return true
	}
	if id != wid {
		t.Errorf("%q: id %d, full parser %d", line, id, wid)
	}
	if d := cmp.Diff(wv, any(v)); d != "" {
		t.Errorf("%q: (-full +fast):\n%s", line, d)
	}
	return true
}

func TestFastResult(t *testing.T) {
	for _, tc := range []struct {
		line string
		fast bool
	}{
		{`{"op":"result","id":7,"valid":true}`, true},
		{` { "valid" : false , "id" : 0 , "op" : "result" , "issues" : [ ] } `, true},
		{`{"op":"result","id":8,"valid":false,"issues":[{"path":"/limit","message":"must be ` +
			`integer","keyword":"type"},{"path":"/","message":"é"}]}`, true},
		{`{"op":"result","id":8,"valid":false}`, true},
		{`{"op":"result","id":8,"valid":false,"issues":[{}]}`, true},
		{`{"op":"result","id":8,"valid":true,"value":{"a":1}}`, false},
		{`{"op":"result","id":8,"valid":true,"issues":[]}`, false},
		{`{"op":"result","id":8,"error":"boom"}`, false},
		{`{"op":"result","id":8}`, false},
		{`{"op":"result","id":08,"valid":true}`, false},
		{`{"op":"result","id":8.0,"valid":true}`, false},
		{`{"op":"result","id":8e0,"valid":true}`, false},
		{`{"op":"result","id":-8,"valid":true}`, false},
		{`{"op":"result","id":99999999999999999999,"valid":true}`, false},
		{`{"op":"result","id":8,"id":9,"valid":true}`, false},
		{`{"op":"result","id":8,"valid":true}x`, false},
		{`{"op":"result","id":8,"valid":true,}`, false},
		{`{"op":"result","id":8,"valid":tru}`, false},
		{`{"op":"result","id":8,"valid":false,"issues":[{"path":"a\"b","message":""}]}`, false},
		{`{"op":"result","id":8,"valid":false,"issues":[{"path":"limit","message":""}]}`, false},
		{`{"op":"result","id":8,"valid":false,"issues":[{"path":"/a","path":"/b"}]}`, false},
		{"{\"op\":\"result\",\"id\":8,\"valid\":false,\"issues\":[{\"path\":\"/\xff\"}]}", false},
		{"{\"op\":\"result\",\"id\":8,\"valid\":false,\"issues\":[{\"path\":\"/\x01\"}]}", false},
		{`{"op":"tool","id":8,"valid":true}`, false},
		{`[{"op":"result","id":8,"valid":true}]`, false},
	} {
		if got := checkFast(t, tc.line); got != tc.fast {
			t.Errorf("%q: fast path %v, want %v", tc.line, got, tc.fast)
		}
	}
}

// TestFastResultAgrees builds result-like lines from pieces, often broken, and checks that the
// fast path never disagrees with the full parser.
func TestFastResultAgrees(t *testing.T) {
	pieces := []string{`{`, `}`, `[`, `]`, `,`, `:`, ` `, `"op"`, `"result"`, `"id"`, `7`, `07`, `7.5`,
		`"valid"`, `true`, `false`, `"issues"`, `"path"`, `"/a"`, `"/"`, `""`, `"message"`, `"m"`,
		`"keyword"`, `"value"`, `null`, `"\u00e9"`, "\"\xff\"", `"a\"b"`, `"error"`}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		if rapid.Bool().Draw(t, "shaped") {
			b.WriteString(`{"op":"result","id":` +
				rapid.SampledFrom([]string{"1", "0", "123"}).Draw(t, "id") + `,"valid":`)
		}
		for _, p := range rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 30).Draw(t, "pieces") {
			b.WriteString(p)
		}
		checkFast(t, b.String())
	})
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 3).Draw(t, "n")
		var b strings.Builder
		b.WriteString(`{"op":"result","id":5,"valid":false,"issues":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"path":"` + rapid.SampledFrom([]string{"", "/", "/a", "a", "/é"}).Draw(t, "path") +
				`","message":"` + rapid.StringMatching(`[a-z ]{0,8}`).Draw(t, "msg") + `"}`)
		}
		b.WriteString("]}")
		checkFast(t, b.String())
	})
}

// TestAppendArguments checks the encoder of validate arguments against jsonvalue.AppendString.
func TestAppendArguments(t *testing.T) {
	check := func(t interface {
		Errorf(string, ...any)
	}, args []byte) {
		got, ok := appendArguments([]byte("x"), args)
		if ok != utf8.Valid(args) {
			t.Errorf("%q: ok %v, valid UTF-8 %v", args, ok, utf8.Valid(args))
			return
		}
		extra, ascii := measureArguments(args)
		g := newGate(nil, "a tool")
		line := g.appendLine(nil, 1<<63, args, extra, ascii)
		if size := g.lineSize(args, extra, ascii); ascii && len(line) > size || !ok && len(line) > size {
			t.Errorf("%q: message of %d bytes, but lineSize says %d", args, len(line), size)
		}
		if !ok {
			return
		}
		if want := jsonvalue.AppendString([]byte("x"), string(args)); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", args, got, want)
		}
		var back string
		if err := json.Unmarshal(got[1:], &back); err != nil || back != string(args) {
			t.Errorf("%q: %s reads back as %q (%v)", args, got[1:], back, err)
		}
	}
	for _, s := range []string{"", `{"path":"a"}`, "a\x00\x1f\x7f\"\\\n\r\t\b\f", "é😀\u2028\u2029x", "\xff",
		"a\xc3", "\xed\xa0\x80"} {
		check(t, []byte(s))
	}
	rapid.Check(t, func(t *rapid.T) {
		pieces := rapid.SliceOfN(rapid.SampledFrom([]string{"a", `"`, `\`, "\n", "\x01", "\x1f", " ", "\x7f",
			"é", "\u2028", "\u2029", "😀", "\xff", "\xc3", "\xe2\x80", "{", "}"}), 0, 20).Draw(t, "pieces")
		check(t, []byte(strings.Join(pieces, "")))
	})
}

// fastResult reads the common result shapes without building a generic JSON value:
// {"op":"result","id":N,"valid":BOOL,"issues":[{"path":S,"message":S,"keyword":S},...]} with
// keys in any order and strings free of escapes. Anything else (value, error, escapes, other
// keys, repeated keys, odd numbers) reports false and goes through the full parser, which is
// the reference: whenever fastResult reports true, the full path gives the same id and verdict.
func fastResult(line []byte) (uint64, validator.Verdict, bool) {
	return fastResultIn(line, nil)
}

// appendArguments appends args as a JSON string, as jsonvalue.AppendString does; ok is false
// when args is not valid UTF-8 (and what was appended is to be dropped).
func appendArguments(dst, args []byte) (_ []byte, ok bool) {
	if extra, ascii := measureArguments(args); ascii {
		return appendASCII(dst, args, extra), true
	}
	return jsonvalue.AppendStringBytes(dst, args)
}
