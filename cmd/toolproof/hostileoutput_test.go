package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

// hostileName holds a screen clear, an OSC 8 hyperlink ended by BEL, a C1 CSI and a
// right-to-left override: each would act on a terminal if written raw.
const hostileName = `clear\u001b[2Jx\u001b]8;;http://x\u0007link\u001b]8;;\u0007\u009b31m\u202eevil`

// hostileTools is a tool file whose names, descriptions, property names and enum values are
// hostile, with a tool that is skipped (it admits no object) so that its name is printed, and a
// pattern not every dialect reads alike, so that a warning quotes it.
const hostileTools = `[
 {"name": "` + hostileName + `", "description": "` + hostileName + `",
  "parameters": {"type": "object", "properties": {
   "p\u001b[2J\u202e": {"type": "string", "enum": ["a\u001b[2J", "b\u202e"], "description": "\u001b]8;;http://x\u0007"},
   "q\u0085": {"type": "string", "pattern": "^(?=a)\u001b"}},
   "required": ["p\u001b[2J\u202e"], "additionalProperties": false}},
 {"name": "arr` + hostileName + `", "parameters": {"type": "array"}}
]`

// rawControl is the byte offset of the first control character (but newline) or bidirectional
// control in s, or -1.
func rawControl(s string) int {
	return strings.IndexFunc(s, func(r rune) bool {
		return (unicode.IsControl(r) && r != '\n') || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) ||
			r == 0x200E || r == 0x200F || r == 0x061C
	})
}

// TestNoRawControlInAnyOutput: a hostile tool file through audit (text), gen (each format's
// notes), classify (a log calling hostile unknown tools, and a line it cannot read) and an error
// message, and run's JSON and SARIF: no control byte or bidirectional override reaches stdout or
// stderr raw. The JSON outputs write them as \u escapes, so that they stay valid JSON holding the
// text exactly.
func TestNoRawControlInAnyOutput(t *testing.T) {
	dir := t.TempDir()
	tools := writeFile(t, dir, "hostile.json", hostileTools)
	calls := writeFile(t, dir, "calls.jsonl", `{"tool":"`+hostileName+`","arguments":{"a":1}}
{"tool":"other\u001b[2J","arguments":{}}
not a call `+"\x1b[2J\u202e"+`
`)
	for _, tc := range []struct {
		args []string
		json bool // stdout is JSON
		want string
	}{
		{[]string{"audit", "--tools", tools}, false, `clear\u001B[2Jx\u001B]8;;http://x\u0007link`},
		{[]string{"audit", "--tools", tools, "--all"}, false, `\u202E`},
		{[]string{"gen", "--tools", tools, "--n", "2"}, true, `skipped arrclear\u001B[2J`},
		{[]string{"gen", "--tools", tools, "--n", "2", "--mutated"}, true, `skipped arrclear\u001B[2J`},
		{[]string{"gen", "--tools", tools, "--n", "2", "--format", "test-suite"}, true, `skipped arrclear\u001B[2J`},
		{[]string{"gen", "--tools", tools, "--n", "2", "--format", "go-fuzz", "--out", dir}, false,
			`skipped arrclear\u001B[2J`},
		{[]string{"classify", "--tools", tools, "--calls", calls}, false, `unknown tools: other\u001B[2J (1)`},
		{[]string{"classify", "--tools", tools, "--calls", calls, "--format", "json"}, true, `other\u001b[2J`},
		{[]string{"run", "--tools", tools, "--checks", "3", "--format", "json"}, true, `\u009b31m\u202eevil`},
		{[]string{"run", "--tools", tools, "--checks", "3", "--format", "sarif"}, true, `\u202eevil`},
		{[]string{"run", "--tools", writeFile(t, dir, "skipped.json", `[{"name": "arr`+hostileName+
			`", "parameters": {"type": "array"}}]`)}, false, `arrclear\u001B[2J`},
	} {
		r := cli(t, tc.args...)
		out := r.stdout + r.stderr
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s: exit %d, no %s in the output:\n%s", strings.Join(tc.args, " "), r.code, tc.want, out)
		}
		if i := rawControl(r.stderr); i >= 0 {
			t.Errorf("%s: a raw control at byte %d of stderr:\n%q", strings.Join(tc.args, " "), i, r.stderr)
		}
		if i := rawControl(r.stdout); i >= 0 {
			t.Errorf("%s: a raw control at byte %d of stdout:\n%q", strings.Join(tc.args, " "), i, clip(r.stdout))
		}
		if tc.json && !validJSON(r.stdout) {
			t.Errorf("%s: stdout is not JSON (one document, or one a line):\n%s", strings.Join(tc.args, " "),
				clip(r.stdout))
		}
	}
}

// validJSON reports whether s is one JSON document, or JSON lines.
func validJSON(s string) bool {
	if json.Valid([]byte(s)) {
		return true
	}
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if !json.Valid([]byte(line)) {
			return false
		}
	}
	return s != ""
}
