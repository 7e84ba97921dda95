package mcp

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator"
)

func TestClassify(t *testing.T) {
	isError := func(text string) response {
		b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}},
			"isError": true})
		return response{Result: b}
	}
	rpc := func(code int, msg string) response { return response{Error: &rpcError{Code: code, Message: msg}} }
	c := answerReader{sdk: SDKForms(), wording: validator.Wording{Reject: regexp.MustCompile(`^ERR_BAD_INPUT`),
		Ran: regexp.MustCompile(`quota exceeded`)}}
	for _, tc := range []struct {
		name string
		r    response
		want string // rejected, accepted, unclear, fault
		form string
		path string // of the first issue, for rejections
	}{
		{"TypeScript SDK", isError("MCP error -32602: Input validation error: Invalid arguments for tool t: Invalid " +
			"input: expected number, received string at a.b[2]"), "rejected", formSDK("TypeScript SDK"), "/a/b/2"},
		{"TypeScript SDK, root",
			isError("MCP error -32602: Input validation error: Invalid arguments for tool t: Unrecognized key: \"x\""),
			"rejected", formSDK("TypeScript SDK"), ""},
		{"TypeScript SDK 2.x",
			isError("Input validation error: Invalid arguments for tool t: when.hour: Invalid input: expected " +
				"number, received string, label: Too big: expected string to have <=40 characters"), "rejected",
			formSDK("TypeScript SDK"), "/when/hour"},
		{"TypeScript SDK 2.x, index",
			isError("Input validation error: Invalid arguments for tool t: days.1: Invalid option: expected one of " +
				"\"mon\"|\"tue\""), "rejected", formSDK("TypeScript SDK"), "/days/1"},
		{"TypeScript SDK 2.x, root first",
			isError(`Input validation error: Invalid arguments for tool t: Unrecognized key: "x", hour: Too small: ` +
				`expected number to be >=0`), "rejected", formSDK("TypeScript SDK"), ""},
		{"-32700 id null", rpc(-32700, "Parse error"), "rejected", FormRPCParseError, ""},
		{"Python low-level", isError("Input validation error: 'x' is a required property"), "rejected",
			formSDK("TypeScript SDK"), ""},
		{"pydantic", isError("Error executing tool t: 1 validation error for tArguments\nhour\n  Input should be a " +
			"valid integer"), "rejected", formSDK("pydantic (FastMCP)"), ""},
		{"Go SDK", isError(`validating "arguments": validating root: required: missing properties: ["hour"]`),
			"rejected", formSDK("Go SDK"), ""},
		{"Go SDK unmarshal", isError(`json: cannot unmarshal number 1.5 into Go struct field A.hour of type int`),
			"rejected", formSDK("Go SDK"), ""},
		{"mcp-go schema", isError(`input schema validation failed: /hour: got string, want integer; /x: additional ` +
			`property`), "rejected", formSDK("mcp-go"), "/hour"},
		{"mcp-go bind", isError(`failed to bind arguments: json: cannot unmarshal string into Go struct field`),
			"rejected", formSDK("mcp-go"), ""},
		{"-32602", rpc(-32602, "Invalid params"), "rejected", FormRPCInvalidParams, ""},
		{"-32600", rpc(-32600, "unparsable tools/call request"), "rejected", FormRPCInvalidRequest, ""},
		{"TypeScript request schema",
			rpc(-32603, `[{"expected":"record","code":"invalid_type","path":["params","arguments"],`+
				`"message":"Invalid input"}]`), "rejected", FormRPCRequestSchema, ""},
		{"-32603 from a handler", rpc(-32603, "Cannot read properties of undefined"), "unclear", formRPC(-32603), ""},
		{"other isError", isError("fetch failed"), "unclear", FormUnclearIsError, ""},
		{"--reject-pattern", isError("ERR_BAD_INPUT hour"), "rejected", FormRejectPattern, ""},
		{"--ran-pattern", isError("quota exceeded for key"), "accepted", FormRanPattern, ""},
		{"plain result", response{Result: json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`)},
			"accepted", FormRan, ""},
		{"not a result", response{Result: json.RawMessage(`[1]`)}, "fault", FormProtocolError, ""},
	} {
		v, form := c.read(tc.r)
		got := "rejected"
		switch {
		case v.Fault != "":
			got = "fault"
		case v.Unclear:
			got = "unclear"
		case v.Valid:
			got = "accepted"
		}
		if got != tc.want || form != tc.form {
			t.Errorf("%s: got %s as %q, want %s as %q", tc.name, got, form, tc.want, tc.form)
			continue
		}
		if got == "rejected" && (len(v.Issues) == 0 || v.Issues[0].Path != tc.path) {
			t.Errorf("%s: issues %v, want the first at %q", tc.name, v.Issues, tc.path)
		}
		if got == "unclear" && (len(v.Issues) == 0 || v.Issues[0].Message == "") {
			t.Errorf("%s: an unclear verdict without its text in Issues (the leak check reads them)", tc.name)
		}
	}
}

// TestErrorAnswers: an error answer in no wording known as a rejection says what it reads as,
// so that a valid call answered so is a false_reject (refused) or a gate_error (threw).
func TestErrorAnswers(t *testing.T) {
	isError := func(text string) response {
		b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}},
			"isError": true})
		return response{Result: b}
	}
	rpc := func(code, status int, msg string) response {
		return response{Error: &rpcError{Code: code, Message: msg}, status: status}
	}
	c := answerReader{sdk: SDKForms(), wording: validator.Wording{Ran: regexp.MustCompile(`not found`)}}
	for _, tc := range []struct {
		name   string
		r      response
		want   validator.ErrorAnswer
		detail string // a part of the verdict's detail
	}{
		{"a refusal in the tool's words", isError("Invalid resourceId: 0. Must be a finite positive integer."),
			validator.Refused, "isError: Invalid resourceId: 0"},
		{"a JavaScript TypeError", isError("Cannot read properties of undefined (reading 'map')"),
			validator.Threw, "reading 'map'"},
		{"x is not a function", isError("args.items.map is not a function"), validator.Threw, "not a function"},
		{"a Python exception", isError("Error executing tool t: KeyError: 'path'"), validator.Threw, "KeyError"},
		{"a Python traceback", isError("Traceback (most recent call last):\n  File \"t.py\""),
			validator.Threw, "Traceback"},
		{"a Go panic", isError("panic recovered in t tool handler: runtime error: index out of range [3]"),
			validator.Threw, "panic"},
		{"internal error", isError("Internal error: the handler failed"), validator.Threw, "Internal error"},
		{"-32603", rpc(-32603, 0, "Cannot convert undefined"), validator.Threw,
			"JSON-RPC error -32603: Cannot convert"},
		{"-32000 on HTTP 500", rpc(-32000, 500, "boom"), validator.Threw, "JSON-RPC error -32000 (HTTP 500): boom"},
		{"-32000 on HTTP 200", rpc(-32000, 200, "no such city"), validator.Refused,
			"JSON-RPC error -32000: no such city"},
		{"-32001 over stdio", rpc(-32001, 0, "quota"), validator.Refused, "quota"},
	} {
		v, _ := c.read(tc.r)
		if !v.Unclear || v.ErrorAnswer != tc.want || !strings.Contains(v.Detail, tc.detail) {
			t.Errorf("%s: unclear %v, error answer %q, detail %q; want %q with %q", tc.name, v.Unclear, v.ErrorAnswer,
				v.Detail, tc.want, tc.detail)
		}
	}
	// --ran-pattern refines: the tool ran.
	if v, form := c.read(isError("Entity with name x not found")); !v.Valid || form != FormRanPattern {
		t.Errorf("--ran-pattern: %+v as %q", v, form)
	}
}

// TestZodCommaList pins every issue of the TypeScript SDK 2.x wording to its place, messages with
// ", " inside kept whole.
func TestZodCommaList(t *testing.T) {
	got := issuesFrom(`Input validation error: Invalid arguments for tool set_alarm: when.hour: Invalid input: ` +
		`expected number, received string, Unrecognized keys: "a", "b", days.0: Invalid option: expected one of ` +
		`"mon"|"tue"`)
	want := []string{`/when/hour|Invalid input: expected number, received string`, `|Unrecognized keys: "a", "b"`,
		`/days/0|Invalid option: expected one of "mon"|"tue"`}
	if len(got) != len(want) {
		t.Fatalf("issues %v", got)
	}
	for i, is := range got {
		if is.Path+"|"+is.Message != want[i] {
			t.Errorf("issue %d: %q|%q, want %q", i, is.Path, is.Message, want[i])
		}
	}
}
