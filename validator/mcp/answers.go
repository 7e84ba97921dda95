package mcp

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/validator"
)

// An SDKForm is a wording an MCP SDK uses in an isError tool result when the arguments failed
// its input validation, before the tool's handler ran.
type SDKForm struct {
	SDK     string         // who writes it
	Pattern *regexp.Regexp // matched against the text of the result's content
}

// SDKForms lists the input-validation wordings toolproof knows, each read from the SDK's source:
//
//   - TypeScript SDK (@modelcontextprotocol/sdk 1.x, McpServer.validateToolInput): "MCP error
//     -32602: Input validation error: Invalid arguments for tool NAME: ..." (the McpError is
//     caught and returned as an isError result); Python's low-level Server (validate_input) uses
//     "Input validation error: ..." as well.
//   - Python FastMCP: pydantic's "N validation error(s) for NAMEArguments" inside "Error
//     executing tool NAME: ...".
//   - Go SDK (github.com/modelcontextprotocol/go-sdk/mcp, toolForErr and applySchema):
//     `validating "arguments": ...` and "unmarshaling arguments: ...", and for a typed input
//     struct that the schema let through, encoding/json's "json: cannot unmarshal ...".
//   - mark3labs/mcp-go: "input schema validation failed: ..." and "invalid arguments: ..." (with
//     server.WithInputSchemaValidation), and "failed to bind arguments: ..." from
//     mcp.NewTypedToolHandler.
func SDKForms() []SDKForm {
	return []SDKForm{
		{"TypeScript SDK", regexp.MustCompile(`Input validation error|Invalid arguments for tool`)},
		{"pydantic (FastMCP)", regexp.MustCompile(`\bvalidation errors? for \S`)},
		{"Go SDK", regexp.MustCompile(`validating "arguments"|^unmarshaling arguments|^json: cannot unmarshal`)},
		{"mcp-go", regexp.MustCompile(`^input schema validation failed|^invalid arguments: |^failed to bind ` +
			`arguments`)},
	}
}

// The forms a verdict is counted under (Client.Forms).
const (
	FormRPCInvalidParams = "rejected: JSON-RPC -32602"
	// FormRPCInvalidRequest: the server refused the request before dispatching it (mcp-go
	// answers so when the arguments do not decode into its request type).
	FormRPCInvalidRequest = "rejected: JSON-RPC -32600"
	// FormRPCRequestSchema: the TypeScript SDK's Protocol parses each request with its zod
	// schema before any handler runs; a failure comes back as -32603 with the zod issues, here
	// at params.arguments (an arguments value that is not an object).
	FormRPCRequestSchema = "rejected: JSON-RPC -32603, TypeScript SDK request schema"
	// FormRPCParseError: a server whose JSON reader gave up on the arguments (Python's json
	// stops at deep nesting) answers -32700, "id": null: it refused the call.
	FormRPCParseError = "rejected: JSON-RPC -32700"
	FormRejectPattern = "rejected: isError matching --reject-pattern"
	// FormHTTPRefused: an HTTP 4xx without a JSON-RPC answer (the Go SDK answers so when its
	// reader stops at nesting depth 1000).
	FormHTTPRefused = "rejected: HTTP 4xx without a JSON-RPC answer"
	// FormRPCHeaderMismatch: the 2026-07-28 header check refused the request before any
	// handler ran (the Go SDK, when it cannot read the tool name out of params).
	FormRPCHeaderMismatch = "rejected: JSON-RPC -32020"
	FormRan               = "ran: plain result"
	FormRanPattern        = "ran: isError matching --ran-pattern"
	FormUnclearIsError    = "unclear: isError in another wording"
	// FormThrewIsError: an isError text that reads as an exception (exceptionWording).
	FormThrewIsError  = "unclear: isError reading as an exception"
	FormProtocolError = "protocol error"
)

// zodAtArguments finds a zod issue list whose path starts at params.arguments.
var zodAtArguments = regexp.MustCompile(`"path":\s*\[\s*"params",\s*"arguments"`)

func formSDK(sdk string) string { return "rejected: isError, " + sdk + " wording" }

func formRPC(code int) string { return "unclear: JSON-RPC error " + strconv.Itoa(code) }

// callResult is the part of a CallToolResult a verdict reads.
type callResult struct {
	Content []contentBlock `json:"content"`
	IsError bool           `json:"isError"`
}

// contentBlock is one block of a CallToolResult's content, as far as toolproof reads it.
type contentBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// answerReader reads a tools/call response as a verdict.
type answerReader struct {
	wording validator.Wording // the server's own words (Options.Wording), read before the SDKs' forms
	sdk     []SDKForm
}

// read returns the verdict of r and the form it is counted under.
func (c *answerReader) read(r response) (validator.Verdict, string) {
	if r.Bad != "" {
		return validator.Failed(validator.ProtocolError, r.Bad), FormProtocolError
	}
	if r.Refused != "" {
		return validator.Reject(validator.Issue{Message: r.Refused}), FormHTTPRefused
	}
	if e := r.Error; e != nil {
		text := e.Message
		if len(e.Data) > 0 && string(e.Data) != "null" {
			text += " " + string(e.Data)
		}
		switch {
		case c.wording.Reject != nil && c.wording.Reject.MatchString(text):
			return validator.Reject(issuesFrom(text)...), FormRejectPattern
		case e.Code == -32602:
			return validator.Reject(issuesFrom(text)...), FormRPCInvalidParams
		case e.Code == -32600:
			return validator.Reject(issuesFrom(text)...), FormRPCInvalidRequest
		case e.Code == -32700:
			return validator.Reject(issuesFrom(text)...), FormRPCParseError
		case e.Code == codeHeaderMismatch:
			return validator.Reject(issuesFrom(text)...), FormRPCHeaderMismatch
		case e.Code == -32603 && zodAtArguments.MatchString(text):
			return validator.Reject(issuesFrom(text)...), FormRPCRequestSchema
		}
		v := validator.Unclear(fmt.Sprintf("JSON-RPC error %d%s: %s", e.Code, statusText(r.status), clip(text, 300)))
		v.Issues = []validator.Issue{{Message: text}}
		v.ErrorAnswer = validator.Refused
		if e.Code == -32603 || r.status >= 500 {
			v.ErrorAnswer = validator.Threw
		}
		return v, formRPC(e.Code)
	}
	res := r.call
	if res == nil {
		res = new(callResult)
		if err := json.Unmarshal(r.Result, res); err != nil {
			return validator.Failed(validator.ProtocolError,
				"a tools/call result that is not a CallToolResult: "+clip(string(r.Result), 200)), FormProtocolError
		}
	}
	if !res.IsError {
		return validator.Accept(), FormRan
	}
	var texts []string
	for _, b := range res.Content {
		if b.Type == "text" || b.Text != "" {
			texts = append(texts, b.Text)
		}
	}
	text := strings.Join(texts, "\n")
	if c.wording.Reject != nil && c.wording.Reject.MatchString(text) {
		return validator.Reject(issuesFrom(text)...), FormRejectPattern
	}
	if c.wording.Ran != nil && c.wording.Ran.MatchString(text) {
		return validator.Accept(), FormRanPattern
	}
	for _, f := range c.sdk {
		if f.Pattern.MatchString(text) {
			return validator.Reject(issuesFrom(text)...), formSDK(f.SDK)
		}
	}
	v := validator.Unclear("isError: " + clip(text, 300))
	v.Issues = []validator.Issue{{Message: text}} // a leak is a leak, whoever wrote the text
	if exceptionWording.MatchString(text) {
		v.ErrorAnswer = validator.Threw
		return v, FormThrewIsError
	}
	v.ErrorAnswer = validator.Refused
	return v, FormUnclearIsError
}

// exceptionWording is an isError text that reads as an exception rather than a refusal: a
// JavaScript runtime error (a TypeError's "Cannot read properties of undefined", "x is not a
// function"), a Python traceback or an "...Error:" / "...Exception:" name, a Go panic or runtime
// error, an internal or unhandled error.
var exceptionWording = regexp.MustCompile(`Cannot read propert(?:y|ies) of (?:undefined|null)|` +
	`\bis not (?:a function|iterable|a constructor|defined)\b|Maximum call stack size exceeded|` +
	`Traceback \(most recent call last\)|\b[A-Z][A-Za-z]*(?:Error|Exception): |` +
	`\bpanic: |\bpanic recovered\b|\bruntime error: |nil pointer dereference|` +
	`(?i:\binternal (?:server )?error\b|\bunhandled (?:exception|error)\b)`)

// statusText names an HTTP status beside a JSON-RPC error ("" over stdio, or for a 2xx).
func statusText(status int) string {
	if status < 300 {
		return ""
	}
	return " (HTTP " + strconv.Itoa(status) + ")"
}

// issuesFrom reads issues out of a validation message: the TypeScript SDK's zod lines
// ("MESSAGE at a.b[0]") and mcp-go's "/a/b: MESSAGE; /c: MESSAGE" give locations; anything else
// is one issue at the root, with the whole text (so that a repeated argument value shows).
func issuesFrom(text string) []validator.Issue {
	if _, rest, ok := strings.Cut(text, "input schema validation failed: "); ok {
		var out []validator.Issue
		for _, part := range strings.Split(rest, "; ") {
			p, msg, ok := strings.Cut(part, ": ")
			if !ok || !strings.HasPrefix(p, "/") && p != "" {
				return []validator.Issue{{Message: text}}
			}
			out = append(out, validator.Issue{Path: p, Message: msg})
		}
		return out
	}
	if _, rest, ok := strings.Cut(text, "Invalid arguments for tool "); ok {
		if _, list, ok := strings.Cut(rest, ": "); ok {
			if out := zodLines(list); out != nil {
				return out
			}
			if out := zodCommaList(list); out != nil {
				return out
			}
		}
	}
	return []validator.Issue{{Message: text}}
}

// zodLines reads the TypeScript SDK 1.x issue list: one issue a line, "MESSAGE at a.b[0]" (a
// line without " at " is at the root). nil when a line ends in no path it can read, or when no
// line names a path (then zodCommaList may read it better).
func zodLines(list string) []validator.Issue {
	var out []validator.Issue
	located := false
	for l := range strings.SplitSeq(list, "\n") {
		msg, at := l, ""
		if i := strings.LastIndex(l, " at "); i >= 0 {
			msg, at = l[:i], l[i+len(" at "):]
		}
		p, ok := dotPathPointer(at)
		if !ok || strings.Contains(at, " ") {
			return nil
		}
		located = located || at != ""
		out = append(out, validator.Issue{Path: p, Message: msg})
	}
	if !located && len(out) == 1 && zodPathPrefix.MatchString(list) {
		return nil
	}
	return out
}

// zodPathPrefix is the "a.b.0: " an issue of the TypeScript SDK 2.x starts with.
var zodPathPrefix = regexp.MustCompile(`^([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*): `)

// zodCommaList reads the TypeScript SDK 2.x issue list (validateStandardSchema's formatIssue):
// "a.b.0: MESSAGE" (or MESSAGE alone at the root) joined by ", ". A message may hold ", " itself
// ("expected number, received string"): a part that starts with no path and with a lower-case
// letter or a quote belongs to the issue before it.
func zodCommaList(list string) []validator.Issue {
	var out []validator.Issue
	for _, part := range strings.Split(list, ", ") {
		if m := zodPathPrefix.FindStringSubmatch(part); m != nil {
			// A segment "0" is an array index or an object key "0": the same JSON Pointer.
			p, _ := dotPathPointer(m[1])
			out = append(out, validator.Issue{Path: p, Message: part[len(m[0]):]})
			continue
		}
		if len(out) > 0 &&
			(part == "" || part[0] >= 'a' && part[0] <= 'z' || part[0] == '"' || part[0] == '\'' ||
				part[0] >= '0' && part[0] <= '9') {
			out[len(out)-1].Message += ", " + part
			continue
		}
		out = append(out, validator.Issue{Message: part})
	}
	return out
}

// dotPathPointer turns the TypeScript SDK's dot path ("a.b[0].c", "object root", "") into a
// JSON Pointer.
func dotPathPointer(at string) (string, bool) {
	if at == "" || at == "object root" {
		return "", true
	}
	var b strings.Builder
	b.Grow(len(at) + 8)
	for seg := range strings.SplitSeq(at, ".") {
		if seg == "" {
			return "", false
		}
		name, idx, _ := strings.Cut(seg, "[")
		b.WriteByte('/')
		if strings.ContainsAny(name, "~/") {
			name = strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
		}
		b.WriteString(name)
		for idx != "" {
			n, after, ok := strings.Cut(idx, "]")
			if !ok {
				return "", false
			}
			if _, err := strconv.Atoi(n); err != nil {
				return "", false
			}
			b.WriteByte('/')
			b.WriteString(n)
			idx = strings.TrimPrefix(after, "[")
		}
	}
	return b.String(), true
}
