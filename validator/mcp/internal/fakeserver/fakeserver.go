package fakeserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
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

func compileTools() map[string]*validator.Gatekeeper {
	gates := map[string]*validator.Gatekeeper{}
	for _, t := range Tools {
		g, err := validator.Compile(t)
		if err != nil {
			panic(err)
		}
		gates[t.Name] = g
	}
	return gates
}

// Serve answers MCP requests read from in on out until in ends.
func Serve(mode string, in io.Reader, out io.Writer) error {
	gates := compileTools()
	var wmu sync.Mutex
	write := func(v any) {
		b, _ := json.Marshal(v)
		wmu.Lock()
		defer wmu.Unlock()
		out.Write(append(b, '\n'))
	}
	r := bufio.NewReader(in)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if mode == "garbage" {
				wmu.Lock()
				io.WriteString(out, "this is not JSON-RPC\n")
				wmu.Unlock()
			} else if e := handle(mode, strings.HasPrefix(mode, "modern"), line, gates, write); e != nil {
				return e
			}
		}
		if err != nil {
			return nil
		}
	}
}

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Cursor    string          `json:"cursor"`
		Meta      struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

// Modern is the revision the modern mode speaks.
const Modern = "2026-07-28"

// maxDepth is how deep the null-id mode's JSON reader goes.
const maxDepth = 64

// depth is the deepest nesting of arrays and objects in a JSON text.
func depth(b []byte) int {
	d, most, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			most = max(most, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return most
}

// slowDone: the modern-slow mode has made its one slow answer (one process serves one session).
var slowDone bool

// handle answers one message; modern: the request is served in the 2026-07-28 revision.
func handle(mode string, modern bool, line []byte, gates map[string]*validator.Gatekeeper, write func(any)) error {
	var req request
	if err := json.Unmarshal(line, &req); err != nil || (mode == "null-id" && depth(line) > maxDepth) {
		write(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32700, "message": "Parse error"}})
		return nil
	}
	if len(req.ID) == 0 {
		return nil // a notification
	}
	reply := func(result any) { write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result}) }
	replyErr := func(code int, msg string) {
		write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": code, "message": msg}})
	}
	if modern {
		switch {
		case req.Method == "initialize" && mode == "modern-slow":
			write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32022, "message": "Unsupported protocol version",
				"data": map[string]any{"supported": []string{Modern}, "requested": "2025-11-25"}}})
			return nil
		case req.Method == "initialize":
			replyErr(-32601, "initialize is not a method of MCP "+Modern+"; this server speaks only "+Modern)
			return nil
		case req.Params.Meta.ProtocolVersion == "":
			replyErr(-32602, "missing _meta io.modelcontextprotocol/protocolVersion")
			return nil
		case req.Params.Meta.ProtocolVersion != Modern:
			write(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32022, "message": "Unsupported protocol version",
				"data": map[string]any{"supported": []string{Modern}, "requested": req.Params.Meta.ProtocolVersion}}})
			return nil
		case req.Method == "server/discover":
			if mode == "modern-slow" && !slowDone {
				slowDone = true
				time.Sleep(700 * time.Millisecond)
			}
			reply(map[string]any{"resultType": "complete", "supportedVersions": []string{Modern}, "capabilities": map[string]any{"tools": map[string]any{}},
				"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "fake-modern", "version": "0.1"}}})
			return nil
		}
	}
	switch req.Method {
	case "initialize":
		v := "2025-11-25"
		switch mode {
		case "hang-init":
			return nil
		case "old":
			v = "2025-03-26"
		case "bad-version":
			v = "1999-01-01"
		}
		reply(map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "fake-" + mode, "version": "0.1"}})
	case "tools/list":
		var list []map[string]any
		for _, t := range Tools {
			list = append(list, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.Parameters})
		}
		switch mode {
		case "no-tools":
			list = []map[string]any{}
		case "endless":
			i, _ := strconv.Atoi(req.Params.Cursor)
			reply(map[string]any{"tools": []map[string]any{{"name": "t" + strconv.Itoa(i), "inputSchema": map[string]any{"type": "object"}}},
				"nextCursor": strconv.Itoa(i + 1)})
			return nil
		case "many-tools":
			for i := range 10001 {
				list = append(list, map[string]any{"name": "t" + strconv.Itoa(i), "inputSchema": map[string]any{"type": "object"}})
			}
		case "huge-schema":
			list = append(list, map[string]any{"name": "huge", "inputSchema": wideSchema(100000)})
		case "huge-line":
			list = append(list, map[string]any{"name": "huge", "inputSchema": wideSchema(1500000)})
		case "paged":
			i, _ := strconv.Atoi(req.Params.Cursor)
			res := map[string]any{"tools": list[i : i+1]}
			if i+1 < len(list) {
				res["nextCursor"] = strconv.Itoa(i + 1)
			}
			reply(res)
			return nil
		}
		reply(map[string]any{"tools": list})
	case "tools/call":
		g := gates[req.Params.Name]
		if g == nil {
			replyErr(-32602, "Tool "+req.Params.Name+" not found")
			return nil
		}
		args := []byte(req.Params.Arguments)
		if mode == "crash" {
			if bytes.Contains(args, []byte("boom")) {
				return ErrCrash
			}
			if bytes.Contains(args, []byte("sleep")) {
				return nil
			}
		}
		if mode == "lenient" {
			args = loosen(args, g)
		}
		v := g.Check(context.Background(), args)
		if v.Valid {
			if mode == "ran-error" {
				reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": "upstream service refused the API key"}}, "isError": true})
				return nil
			}
			reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}})
			return nil
		}
		var msgs []string
		for _, is := range v.Issues {
			msgs = append(msgs, is.Message+" at "+dotPath(is.Path))
		}
		text := "Input validation error: Invalid arguments for tool " + req.Params.Name + ": " + strings.Join(msgs, "\n")
		switch mode {
		case "correct-rpc":
			replyErr(-32602, text)
		case "lenient":
			reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": "Input validation error: cannot use " + string(req.Params.Arguments)}}, "isError": true})
		default:
			reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": true})
		}
	case "ping":
		reply(map[string]any{})
	default:
		replyErr(-32601, "method not found")
	}
	return nil
}

// loosen is the planted leniency: a top-level integer given as a string of digits becomes the
// integer, and keys the schema does not declare are dropped.
func loosen(args []byte, g *validator.Gatekeeper) []byte {
	var schema struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(g.Tool().Parameters, &schema)
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil || obj == nil {
		return args
	}
	for k, raw := range obj {
		p, declared := schema.Properties[k]
		if !declared {
			delete(obj, k)
			continue
		}
		var s string
		if p.Type == "integer" && json.Unmarshal(raw, &s) == nil {
			if _, err := strconv.Atoi(s); err == nil {
				obj[k] = json.RawMessage(s)
			}
		}
	}
	b, _ := json.Marshal(obj)
	return b
}

// dotPath writes a JSON Pointer the way the TypeScript SDK writes zod paths.
func dotPath(p string) string {
	if p == "" {
		return "object root"
	}
	var b strings.Builder
	for i, seg := range strings.Split(p[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(seg); err == nil && i > 0 {
			fmt.Fprintf(&b, "[%s]", seg)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

// wideSchema is an object schema of n string properties.
func wideSchema(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	return json.RawMessage(b.String())
}
