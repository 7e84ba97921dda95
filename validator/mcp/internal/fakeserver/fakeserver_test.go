package fakeserver

import (
	"bytes"
	"strings"
	"testing"
)

// TestServe pins what a mode answers to one request, through the method table and the
// 2026-07-28 revision's gate.
func TestServe(t *testing.T) {
	const modern = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	for _, tc := range []struct {
		mode, line, want string
	}{
		{"correct", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, `"protocolVersion":"2025-11-25"`},
		{"old", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, `"protocolVersion":"2025-03-26"`},
		{"hang-init", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, ``},
		{"correct", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ``},
		{"correct", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"id":2,"jsonrpc":"2.0","result":{}}`},
		{"correct", `{"jsonrpc":"2.0","id":3,"method":"server/discover"}`, `"code":-32601`},
		{"correct", `not JSON`, `{"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"}`},
		{"null-id", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":` + strings.Repeat("[", 65) +
			strings.Repeat("]", 65) + `}}`, `"id":null`},
		{"paged", `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":"1"}}`,
			`"tools":[{"description":"Send a note."`},
		{"correct", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"set_alarm",` +
			`"arguments":{"hour":24}}}`,
			`Invalid arguments for tool set_alarm: `},
		{"correct-rpc", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"set_alarm","arguments":{}}}`,
			`"code":-32602`},
		{"lenient", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"set_alarm",` +
			`"arguments":{"hour":"7","x":1}}}`, `"text":"done"`},
		{"modern", `{"jsonrpc":"2.0","id":9,"method":"initialize","params":{}}`, `"code":-32601`},
		{"modern", `{"jsonrpc":"2.0","id":10,"method":"tools/list","params":{}}`, `missing _meta`},
		{"modern", `{"jsonrpc":"2.0","id":11,"method":"server/discover","params":{` + modern + `}}`,
			`"supportedVersions":["2026-07-28"]`},
		{"modern", `{"jsonrpc":"2.0","id":12,"method":"tools/list",` +
			`"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}`,
			`"data":{"requested":"2025-11-25","supported":["2026-07-28"]}`},
	} {
		var out bytes.Buffer
		if err := Serve(tc.mode, strings.NewReader(tc.line+"\n"), &out); err != nil {
			t.Errorf("%s %s: %v", tc.mode, tc.line, err)
		}
		if got := out.String(); tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s %s:\ngot  %s\nwant %s", tc.mode, tc.line, got, tc.want)
		}
	}
}

// TestRunCrash: the crash mode ends the process with exit code 3 at a call holding "boom".
func TestRunCrash(t *testing.T) {
	var out, errs bytes.Buffer
	in := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"set_alarm","arguments":{"hour":1,` +
		`"label":"boom"}}}` + "\n"
	if code := Run("crash", strings.NewReader(in), &out, &errs); code != 3 || out.Len() != 0 ||
		!strings.Contains(errs.String(), "crash") {
		t.Errorf("exit code %d, stdout %q, stderr %q", code, out.String(), errs.String())
	}
}
