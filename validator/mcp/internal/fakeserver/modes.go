package fakeserver

import (
	"encoding/json"
	"errors"

	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// Modes lists the modes Serve knows.
var Modes = []string{
	"correct",     // rejects invalid arguments with isError "Input validation error: ..." (no values quoted)
	"correct-rpc", // the same as JSON-RPC -32602 errors
	"lenient",     // accepts "20" for an integer, strips unknown keys, repeats argument values in its errors
	"ran-error",   // every call fails after its gate with an isError text in no SDK's wording
	"hang-init",   // never answers initialize
	"garbage",     // answers every line with text that is not JSON
	"no-tools",    // lists no tools
	"paged",       // lists one tool per tools/list page
	"endless",     // lists one new tool per tools/list page, and always one more page
	"many-tools",  // lists 10,001 tools
	"huge-schema", // lists a tool of 100,000 properties (about 2.7 MB) beside Tools
	"huge-line",   // lists a tool of 1,500,000 properties (about 42 MB in one message)
	"crash",       // exits when a call's arguments contain "boom"; never answers one with "sleep"
	"old",         // agrees to protocol version 2025-03-26
	"bad-version", // answers initialize with a version nobody speaks
	"modern",      // speaks only 2026-07-28: refuses initialize, answers server/discover, wants _meta (gate as correct)
	"null-id",     // a correct gate whose JSON reader stops past nesting depth 64: -32700 with "id": null
	"modern-slow", // modern, but its first server/discover answer takes 700 ms, and initialize gets -32022
}

// Tools are the tools the fake server lists.
var Tools = []tool.Tool{
	{Name: "set_alarm", Description: "Set an alarm.", Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"hour":{"type":"integer","minimum":0,"maximum":23},"label":{"type":"string","maxLength":40},` +
		`"days":{"type":"array","items":{"type":"string","enum":["mon","tue","wed","thu","fri","sat","sun"]}}},` +
		`"required":["hour"],"additionalProperties":false}`)},
	{Name: "send_note", Description: "Send a note.", Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"to":{"type":"string"},"body":{"type":"string"},"priority":{"type":"integer","minimum":1,"maximum":5}},` +
		`"required":["to","body"],"additionalProperties":false}`)},
}

// ErrCrash is what Serve returns when the crash mode is told to crash.
var ErrCrash = errors.New("fakeserver: crash requested")

// compileTools compiles Tools into the gates the server checks calls with.
func compileTools() map[string]*oracle.Gatekeeper {
	gates := map[string]*oracle.Gatekeeper{}
	for _, t := range Tools {
		g, err := oracle.Compile(t)
		if err != nil {
			panic(err)
		}
		gates[t.Name] = g
	}
	return gates
}
