package stdio

import (
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator"
)

// The result forms beside valid: gate_error (the gate threw: its message and stack, never a
// protocol_error), unclear (with what an error answer read as: refused or threw) and not_sent; a
// gate_error or error_answer of the wrong shape is the adapter's fault.
func TestResultForms(t *testing.T) {
	for _, tc := range []struct {
		line   string
		check  func(validator.Verdict) bool
		expect string
	}{
		{`{"op":"result","id":1,"gate_error":{"message":"RangeError: Maximum call stack size exceeded","stack":"at ` +
			`convertUndefinedToNull (tool.js:198:12)"}}`,
			func(v validator.Verdict) bool {
				return v.Fault == validator.GateError && strings.Contains(v.Detail, "RangeError: Maximum call stack") &&
					strings.Contains(v.Detail, "at convertUndefinedToNull")
			}, "a gate_error with the message and the stack"},
		{`{"op":"result","id":2,"gate_error":"boom"}`,
			func(v validator.Verdict) bool { return v.Fault == validator.ProtocolError }, "a protocol_error"},
		{`{"op":"result","id":3,"unclear":"isError: disk full","issues":[{"path":"","message":"disk full"}]}`,
			func(v validator.Verdict) bool {
				return v.Unclear && v.Fault == "" && len(v.Issues) == 1 && v.ErrorAnswer == ""
			}, "unclear with its issue"},
		{`{"op":"result","id":6,"unclear":"JSON-RPC error -32603: boom","error_answer":"threw"}`,
			func(v validator.Verdict) bool { return v.Unclear && v.ErrorAnswer == validator.Threw },
			"an unclear error answer that threw"},
		{`{"op":"result","id":7,"unclear":"isError: no such file","error_answer":"refused"}`,
			func(v validator.Verdict) bool { return v.Unclear && v.ErrorAnswer == validator.Refused },
			"an unclear error answer that refused"},
		{`{"op":"result","id":8,"unclear":"isError: x","error_answer":"crashed"}`,
			func(v validator.Verdict) bool { return v.Fault == validator.ProtocolError }, "a protocol_error"},
		{`{"op":"result","id":4,"not_sent":"not JSON"}`,
			func(v validator.Verdict) bool { return v.NotSent && v.Detail == "not JSON" }, "not sent"},
		{`{"op":"result","id":5,"not_sent":7}`,
			func(v validator.Verdict) bool { return v.Fault == validator.ProtocolError }, "a protocol_error"},
	} {
		if _, _, fast := fastResult([]byte(tc.line)); fast {
			t.Errorf("%s: the fast path took it", tc.line)
		}
		_, v, ok := fullResult([]byte(tc.line))
		if !ok || !tc.check(v.(validator.Verdict)) {
			t.Errorf("%s: got %+v, want %s", tc.line, v, tc.expect)
		}
	}
}
