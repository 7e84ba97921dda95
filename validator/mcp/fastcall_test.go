package mcp

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// callAnswerLines are answers as servers write them, and shapes the fast path must leave to
// encoding/json.
var callAnswerLines = []string{
	`{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"[\n  {\n    \"expected\": \"record\",\n    \"code\": ` +
		`\"invalid_type\",\n    \"path\": [\n      \"params\",\n      \"arguments\"\n    ],\n    \"message\": ` +
		`\"Invalid input: expected record, received array\"\n  }\n]"}}`,
	`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"MCP error -32602: Tool nope not found"}}`,
	` { "error" : { "message" : "\u00e9\ud83d\ude00\/\\\b\f\r\t caf\u00E9 日本" , "code" : 0 } , "id" : 9 } `,
	`{"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for ` +
		`tool create_entities: Invalid input: expected array, received number at ` +
		`entities"}],"isError":true},"jsonrpc":"2.0","id":2}`,
	`{"result":{"content":[{"type":"text","text":"{\n  \"entities\": [],\n  \"relations\": ` +
		`[]\n}"}],"isError":false},"jsonrpc":"2.0","id":3}`,
	`{"jsonrpc":"2.0","id":17,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":17,"result":{"content":[{"type":"text","text":"a"},{"type":"text",` +
		`"text":"\u00e9\ud83d\ude00 caf\u00e9 日本"}],"isError":true}}`,
	` { "id" : 4 , "result" : { "isError" : true , "content" : [ { "text" : "x" , "type" : "text" } ] } } `,
	`{"result":{"content":[{"type":"text","text":"a"}],"structuredContent":{"a":1}},"jsonrpc":"2.0","id":3}`,
	`{"result":{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}]},"jsonrpc":"2.0","id":3}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"bad","data":{"a":[1]}}}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"bad"},"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"code":1,"message":"bad"}}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":-32602}}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":-3.5e2,"message":"bad"}}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":-1234567890,"message":"bad"}}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":-0,"message":"\ud83d x \ude00 \uD83D\u0041 \u12G4"}}`,
	`{"jsonrpc":"2.0","id":5,"error":null}`,
	`{"jsonrpc":"2.0","id":5,"result":null}`,
	`{"jsonrpc":"2.0","id":null,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":-5,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":5.0,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":05,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":5,"id":6,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","ID":5,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[],"content":[{"type":"text","text":"b"}]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a","text":"b"}]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a"}],"isError":null}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a` + "\xff" + `"}]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a` + "\t" + `"}]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a\x"}]}}`,
	`{"jsonrpc":"2.0","id":5,"method":"x","result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[]}} x`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[]},}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"a"},]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[{}]}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text"}]}}`,
	`{"jsonrpc":"2.0","id":123456789012345678,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":1234567890123456789,"result":{"content":[]}}`,
}

// TestFastCallAnswer: where fastCallAnswer reads a line, encoding/json reads the same id and
// result; it reads the common shapes; and over many distorted lines it never disagrees.
func TestFastCallAnswer(t *testing.T) {
	fast, fastErr := 0, 0
	check := func(line string) {
		t.Helper()
		id, r, e, ok := fastCallAnswer([]byte(line))
		if !ok {
			return
		}
		fast++
		if e != nil {
			fastErr++
		}
		wid, wr, we, wok := jsonCallAnswer([]byte(line))
		if !wok || id != wid || !reflect.DeepEqual(r, wr) || !reflect.DeepEqual(e, we) {
			t.Fatalf("%q:\nfast %d %+v %+v\nencoding/json %v %d %+v %+v", line, id, r, e, wok, wid, wr, we)
		}
	}
	for _, line := range callAnswerLines[:8] {
		if _, _, _, ok := fastCallAnswer([]byte(line)); !ok {
			t.Errorf("the fast path does not read %s", line)
		}
	}
	for _, line := range callAnswerLines {
		check(line)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(`{}[]",:\ tnrufe0123456789.-aIxébdD/` + "\x00\xff")
	for i := 0; i < 200000; i++ {
		b := []byte(callAnswerLines[rng.IntN(len(callAnswerLines))])
		b = distort(rng, b, alphabet)
		check(string(b))
	}
	if fast < 1000 || fastErr < 1000 {
		t.Errorf("the fast path read only %d lines, %d of them errors", fast, fastErr)
	}
	t.Logf("the fast path read %d lines, %d of them errors", fast, fastErr)
}

// distort changes one to three bytes of b at random places: replaced by, or inserting, a byte
// of alphabet, or deleted.
func distort(rng *rand.Rand, b, alphabet []byte) []byte {
	for n := rng.IntN(3) + 1; n > 0 && len(b) > 0; n-- {
		p := rng.IntN(len(b))
		switch rng.IntN(3) {
		case 0:
			b[p] = alphabet[rng.IntN(len(alphabet))]
		case 1:
			b = append(b[:p], b[p+1:]...)
		default:
			b = append(b[:p], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[p:]...)...)
		}
	}
	return b
}
