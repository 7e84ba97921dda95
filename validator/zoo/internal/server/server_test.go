package server

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fake accepts objects whose "boom" member is absent; "boom" panics.
type fake struct{}

func (fake) Validate(raw []byte) (Verdict, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return Verdict{}, err
	}
	if _, ok := m["boom"]; ok {
		panic("kaboom")
	}
	if _, ok := m["fail"]; ok {
		return Verdict{}, errors.New("adapter trouble")
	}
	return Verdict{Valid: true}, nil
}

var fakeImpl = Impl{
	Name:    "fake",
	Version: "v9.9.9",
	Compile: func(schema json.RawMessage) (Validator, error) {
		if string(schema) == `{"refuse":true}` {
			return nil, errors.New("refused\nwith a newline")
		}
		if string(schema) == `{"panic":true}` {
			panic("compile kaboom")
		}
		return fake{}, nil
	},
}

func serve(t *testing.T, impl Impl, lines ...string) []map[string]any {
	t.Helper()
	var out bytes.Buffer
	if err := Serve(impl, strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, nil); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	var msgs []map[string]any
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("answer is not a JSON object: %q", sc.Text())
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func TestProtocol(t *testing.T) {
	big := `{"x":"` + strings.Repeat("a", 10<<20) + `"}`
	bigReq, _ := json.Marshal(map[string]any{"op": "validate", "id": 7, "tool": "t", "arguments": big})
	msgs := serve(t, fakeImpl,
		`{"op":"hello","protocol":"toolproof/1"}`,
		`{"op":"tool","tool":{"name":"t","parameters":{"type":"object"}}}`,
		`{"op":"tool","tool":{"name":"r","parameters":{"refuse":true}}}`,
		`{"op":"tool","tool":{"name":"p","parameters":{"panic":true}}}`,
		`{"op":"validate","id":1,"tool":"t","arguments":"{}"}`,
		`{"op":"validate","id":2,"tool":"t","arguments":"{\"boom\":1}"}`,
		`{"op":"validate","id":3,"tool":"t","arguments":"{}"}`,
		`{"op":"validate","id":4,"tool":"r","arguments":"{}"}`,
		`{"op":"validate","id":5,"tool":"t","arguments_base64":"`+
			base64.StdEncoding.EncodeToString([]byte("{\"a\":\"\xff\"}"))+`"}`,
		`{"op":"validate","id":6,"tool":"t","arguments":"{\"fail\":1}"}`,
		string(bigReq),
		`not json at all`,
		``,
		`{"op":"validate","id":"s","tool":"t","arguments":"[]"}`,
	)
	want := []string{
		`{"name":"fake","op":"hello","protocol":"toolproof/1","version":"v9.9.9"}`,
		`{"name":"t","ok":true,"op":"tool"}`,
		`{"error":"refused with a newline","name":"r","ok":false,"op":"tool"}`,
		`{"error":"panic while compiling the schema: compile kaboom","name":"p","ok":false,"op":"tool"}`,
		`{"id":1,"op":"result","valid":true}`,
		`{"error":"panic: kaboom","id":2,"op":"result"}`,
		`{"id":3,"op":"result","valid":true}`,
		`{"error":"unknown tool","id":4,"op":"result"}`,
		`{"id":5,"issues":[{"message":"arguments are not valid UTF-8, so not ` +
			`JSON","path":""}],"op":"result","valid":false}`,
		`{"error":"adapter trouble","id":6,"op":"result"}`,
		`{"id":7,"op":"result","valid":true}`,
		`{"id":"s","issues":[{"keyword":"type","message":"arguments must be a JSON ` +
			`object","path":""}],"op":"result","valid":false}`,
	}
	if len(msgs) != len(want) {
		t.Fatalf("got %d answers, want %d: %v", len(msgs), len(want), msgs)
	}
	for i, m := range msgs {
		got, _ := json.Marshal(m)
		if string(got) != want[i] {
			t.Errorf("answer %d:\n got %s\nwant %s", i, got, want[i])
		}
	}
}

func TestGate(t *testing.T) {
	for _, tc := range []struct {
		raw string
		ok  bool
	}{
		{`{}`, true},
		{" \n{\"a\":[1,2]}\t", true},
		{`null`, false},
		{`[]`, false},
		{`"[]"`, false},
		{`{"path":`, false},
		{`{} {}`, false},
		{``, false},
		{"\xef\xbb\xbf{}", false}, // a byte order mark is not JSON
		{"{\"a\":\"\xff\"}", false},
		{`1`, false},
	} {
		is := Gate([]byte(tc.raw))
		if (is == nil) != tc.ok {
			t.Errorf("Gate(%q) = %v, want ok=%v", tc.raw, is, tc.ok)
		}
		if is != nil && is.Path != "" {
			t.Errorf("Gate(%q) path %q, want root", tc.raw, is.Path)
		}
	}
}

func TestPointer(t *testing.T) {
	if got := Pointer(); got != "" {
		t.Errorf("Pointer() = %q", got)
	}
	if got := Pointer("a/b", "c~d", "", "0"); got != "/a~1b/c~0d//0" {
		t.Errorf("Pointer = %q", got)
	}
	if got := Child("/x", "~/"); got != "/x/~0~1" {
		t.Errorf("Child = %q", got)
	}
}
