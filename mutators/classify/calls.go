// Package classify reads the tool calls a team's models made, in the forms teams log them, and
// names each call's distortions with the mutators' own taxonomy (mutators.Context.Recognise): valid,
// invalid with its classes and variants at their JSON Pointers, unexplained with the oracle's
// issues, either where the verdict depends on how numbers are read, or unknown_tool. It tallies
// the classes, writes the invalid calls as regression cases for replay, and the observed class
// frequencies as weights for the harness's draws.
package classify

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Call is one logged tool call.
type Call struct {
	Line int    `json:"line"`         // the line of the log it was read from (1-based)
	ID   string `json:"id,omitempty"` // the call's id, where the log gives one
	Tool string `json:"tool"`
	Args []byte `json:"-"`    // the argument text as the model wrote it (may not be JSON)
	Form string `json:"form"` // the form it was logged in (see Forms)
}

// Forms are the forms of a logged call ReadCalls reads, by the name a Call gives them.
var Forms = []string{
	"plain",            // {"tool": NAME, "arguments": TEXT or OBJECT} ("name", "input" too)
	"openai-chat",      // a Chat Completions message or response with tool_calls
	"openai-responses", // a Responses API function_call item, or a response whose output holds them
	"anthropic",        // a tool_use block, or a message or response whose content holds them
	"mcp",              // a JSON-RPC tools/call request
}

// LineError is a line of the log that holds no call ReadCalls can read.
type LineError struct {
	Line int    `json:"line"`
	Err  string `json:"error"`
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Err) }

// maxLine is the longest line ReadCalls reads (a call with a large argument text).
const maxLine = 64 << 20

// ReadCalls reads a JSON Lines log of tool calls in any of Forms; a line may hold several calls
// (a message with several tool_calls). Blank lines are skipped; a line that holds no call is
// reported with its number and skipped. The error is for the reader only.
func ReadCalls(r io.Reader) ([]Call, []LineError, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var calls []Call
	var bad []LineError
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		cs, err := readLine(line)
		if err != nil {
			bad = append(bad, LineError{Line: n, Err: err.Error()})
			continue
		}
		for i := range cs {
			cs[i].Line = n
		}
		calls = append(calls, cs...)
	}
	if err := sc.Err(); err != nil {
		return calls, bad, fmt.Errorf("reading the calls after line %d: %v", len(calls), err)
	}
	return calls, bad, nil
}

// id is a call's id: a string, or (JSON-RPC) a number, kept as written.
type id string

func (i *id) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*i = id(s)
	} else if string(b) != "null" {
		*i = id(b)
	}
	return nil
}

// envelope holds every field the forms use.
type envelope struct {
	Type      string          `json:"type"`
	ID        id              `json:"id"`
	CallID    string          `json:"call_id"`
	Tool      string          `json:"tool"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Function  *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
	ToolCalls []json.RawMessage `json:"tool_calls"`
	Choices   []struct {
		Message json.RawMessage `json:"message"`
	} `json:"choices"`
	Message json.RawMessage   `json:"message"`
	Output  []json.RawMessage `json:"output"`
	Content json.RawMessage   `json:"content"`
	Method  string            `json:"method"`
	Params  *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
	JSONRPC any `json:"jsonrpc"`
}

// readLine reads the calls of one line.
func readLine(line []byte) ([]Call, error) {
	var e envelope
	if err := json.Unmarshal(line, &e); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	cs, err := e.calls(0)
	if err == nil && len(cs) == 0 {
		err = errors.New("no tool call in it (want {tool, arguments}, tool_calls, a function_call item, a tool_use " +
			"block or a tools/call request)")
	}
	return cs, err
}

// calls returns the calls e holds, reading nested messages no deeper than a response's.
func (e envelope) calls(depth int) ([]Call, error) {
	switch {
	case e.Method != "" || e.JSONRPC != nil:
		return e.mcp()
	case len(e.ToolCalls) > 0:
		return chatCalls(e.ToolCalls)
	case e.Function != nil:
		return one(e.Function.Name, string(e.ID), e.Function.Arguments, "openai-chat")
	case e.Type == "function_call":
		return one(e.Name, firstOf(e.CallID, string(e.ID)), e.Arguments, "openai-responses")
	case e.Type == "tool_use":
		return one(e.Name, string(e.ID), e.Input, "anthropic")
	case e.Tool != "" || (e.Name != "" && (e.Arguments != nil || e.Input != nil)):
		return one(firstOf(e.Tool, e.Name), firstOf(string(e.ID), e.CallID), firstRaw(e.Arguments, e.Input), "plain")
	}
	if depth > 1 {
		return nil, nil
	}
	var out []Call
	var nested []json.RawMessage
	for _, c := range e.Choices {
		nested = append(nested, c.Message)
	}
	nested = append(append(nested, e.Message), e.Output...)
	if len(e.Content) > 0 && e.Content[0] == '[' {
		var blocks []json.RawMessage
		if err := json.Unmarshal(e.Content, &blocks); err == nil {
			nested = append(nested, blocks...)
		}
	}
	for _, raw := range nested {
		if len(raw) == 0 || raw[0] != '{' {
			continue
		}
		var inner envelope
		if err := json.Unmarshal(raw, &inner); err != nil {
			return nil, err
		}
		cs, err := inner.calls(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// mcp reads a JSON-RPC tools/call request.
func (e envelope) mcp() ([]Call, error) {
	if e.Method != "tools/call" {
		return nil, fmt.Errorf("a JSON-RPC %q message, not a tools/call request", e.Method)
	}
	if e.Params == nil {
		return nil, errors.New("a tools/call request without params")
	}
	return one(e.Params.Name, string(e.ID), e.Params.Arguments, "mcp")
}

// chatCalls reads the tool_calls of a Chat Completions message.
func chatCalls(tcs []json.RawMessage) ([]Call, error) {
	var out []Call
	for i, raw := range tcs {
		var tc envelope
		if err := json.Unmarshal(raw, &tc); err != nil {
			return nil, fmt.Errorf("tool_calls[%d]: %v", i, err)
		}
		if tc.Function == nil {
			return nil, fmt.Errorf("tool_calls[%d] has no function", i)
		}
		c, err := one(tc.Function.Name, string(tc.ID), tc.Function.Arguments, "openai-chat")
		if err != nil {
			return nil, fmt.Errorf("tool_calls[%d]: %v", i, err)
		}
		out = append(out, c...)
	}
	return out, nil
}

// one is the call of name with the arguments raw: a JSON string holds the argument text, any
// other JSON value is the arguments as logged (its text kept byte for byte).
func one(name, id string, raw json.RawMessage, form string) ([]Call, error) {
	if name == "" {
		return nil, errors.New("a call without a tool name")
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("the call of %q has no arguments", name)
	}
	args := []byte(raw)
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("the arguments of %q: %v", name, err)
		}
		args = []byte(s)
	}
	return []Call{{Tool: name, ID: id, Args: args, Form: form}}, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func firstRaw(a, b json.RawMessage) json.RawMessage {
	if len(a) > 0 {
		return a
	}
	return b
}
