// Package server speaks the toolproof/1 stdio protocol (see
// validator/stdio/PROTOCOL.md in the main module) on behalf of one validator
// implementation. It owns everything that is the same for every
// implementation: the line loop, pipelining, the JSON parse gate, panic
// recovery and the answer format.
package server

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"unicode/utf8"
)

// Protocol is the protocol name spoken by this server.
const Protocol = "toolproof/1"

// Issue is one reason why arguments were rejected. Path is an RFC 6901 JSON
// Pointer into the arguments ("" is the root). Message must never contain
// values taken from the arguments.
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	Keyword string `json:"keyword,omitempty"`
}

// Verdict is the outcome of validating one set of arguments.
type Verdict struct {
	Valid  bool
	Issues []Issue
	// Value is the JSON the gate would pass on to the tool, when it can
	// differ from the input. Only used when Valid.
	Value json.RawMessage
}

// Validator validates arguments against one compiled tool schema. raw has
// already passed the gate: it is valid UTF-8 and exactly one JSON value whose
// root is an object.
type Validator interface {
	Validate(raw []byte) (Verdict, error)
}

// Impl describes one implementation of the zoo.
type Impl struct {
	// Name is the implementation name (the CLI argument and hello name).
	Name string
	// Description is a one-line description for `toolproof-zoo list`.
	Description string
	// Module is the Go module path of the wrapped library, used to find its
	// version in the build info. Empty for the standard library.
	Module string
	// Version is used when the build info does not name Module.
	Version string
	// Compile turns the tool's parameters schema into a Validator. An error
	// means the library cannot use the schema.
	Compile func(schema json.RawMessage) (Validator, error)
}

// LibraryVersion returns the version of the wrapped library: the version of
// impl.Module recorded in the binary's build info, else impl.Version.
func (impl Impl) LibraryVersion() string {
	if impl.Module != "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, d := range bi.Deps {
				if d.Path != impl.Module {
					continue
				}
				if d.Replace != nil && d.Replace.Version != "" {
					return d.Replace.Version
				}
				if d.Version != "" && d.Version != "(devel)" {
					return d.Version
				}
			}
		}
	}
	return impl.Version
}

// Gate checks the raw argument text before any library sees it. It returns
// nil when raw is valid UTF-8, exactly one JSON value, and that value is an
// object; otherwise the issue (at the root) saying why not.
func Gate(raw []byte) *Issue {
	if !utf8.Valid(raw) {
		return &Issue{Path: "", Message: "arguments are not valid UTF-8, so not JSON"}
	}
	if !json.Valid(raw) {
		return &Issue{Path: "", Message: "arguments are not one valid JSON value"}
	}
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return &Issue{Path: "", Message: "arguments must be a JSON object", Keyword: "type"}
	}
	return nil
}

type inMsg struct {
	Op              string          `json:"op"`
	Protocol        string          `json:"protocol"`
	Tool            json.RawMessage `json:"tool"`
	ID              json.RawMessage `json:"id"`
	Arguments       *string         `json:"arguments"`
	ArgumentsBase64 *string         `json:"arguments_base64"`
}

type toolDef struct {
	Name       string          `json:"name"`
	Parameters json.RawMessage `json:"parameters"`
}

type helloOut struct {
	Op       string `json:"op"`
	Protocol string `json:"protocol"`
	Name     string `json:"name"`
	Version  string `json:"version"`
}

type toolOut struct {
	Op    string `json:"op"`
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

type resultOut struct {
	Op     string          `json:"op"`
	ID     json.RawMessage `json:"id"`
	Valid  *bool           `json:"valid,omitempty"`
	Issues []Issue         `json:"issues,omitempty"`
	Value  json.RawMessage `json:"value,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// Serve runs the protocol loop: it reads requests line by line from r until
// EOF and writes answers to w. Logs go to logw (may be nil). Answers are
// buffered and flushed whenever no further input is already buffered, so that
// pipelined requests are answered in batches. Serve returns nil at EOF.
func Serve(impl Impl, r io.Reader, w io.Writer, logw io.Writer) error {
	if logw == nil {
		logw = io.Discard
	}
	s := &session{
		impl:  impl,
		tools: map[string]Validator{},
		out:   bufio.NewWriterSize(w, 64<<10),
		log:   logw,
	}
	in := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			s.handle(line)
		}
		if err != nil {
			ferr := s.out.Flush()
			if errors.Is(err, io.EOF) {
				return ferr
			}
			return err
		}
		if in.Buffered() == 0 {
			if err := s.out.Flush(); err != nil {
				return err
			}
		}
	}
}

type session struct {
	impl  Impl
	tools map[string]Validator
	out   *bufio.Writer
	log   io.Writer
}

func (s *session) send(v any) {
	b, err := marshal(v)
	if err != nil {
		fmt.Fprintf(s.log, "toolproof-zoo: cannot encode answer: %v\n", err)
		return
	}
	s.out.Write(b)
	s.out.WriteByte('\n')
}

// marshal encodes without HTML escaping and without a trailing newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func (s *session) handle(line []byte) {
	var m inMsg
	if err := json.Unmarshal(line, &m); err != nil {
		fmt.Fprintf(s.log, "toolproof-zoo: ignoring a line that is not a JSON object (%d bytes)\n", len(line))
		return
	}
	switch m.Op {
	case "hello":
		s.send(helloOut{Op: "hello", Protocol: Protocol, Name: s.impl.Name, Version: s.impl.LibraryVersion()})
		s.out.Flush()
	case "tool":
		s.handleTool(m.Tool)
		// Flushed at once: validating can overflow the stack (some
		// libraries recurse forever on cyclic $refs), which kills the
		// process before a later flush.
		s.out.Flush()
	case "validate":
		s.handleValidate(&m)
	default:
		fmt.Fprintf(s.log, "toolproof-zoo: ignoring unknown op %q\n", m.Op)
	}
}

func (s *session) handleTool(raw json.RawMessage) {
	var t toolDef
	if err := json.Unmarshal(raw, &t); err != nil {
		fmt.Fprintf(s.log, "toolproof-zoo: ignoring a tool message without a usable tool object\n")
		return
	}
	schema := t.Parameters
	if len(schema) == 0 || string(schema) == "null" {
		schema = json.RawMessage(`{}`)
	}
	v, err := s.compile(schema)
	if err != nil {
		delete(s.tools, t.Name)
		s.send(toolOut{Op: "tool", Name: t.Name, OK: false, Error: oneLine(err.Error())})
		return
	}
	s.tools[t.Name] = v
	s.send(toolOut{Op: "tool", Name: t.Name, OK: true})
}

func (s *session) compile(schema json.RawMessage) (v Validator, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("panic while compiling the schema: %v", p)
		}
	}()
	v, err = s.impl.Compile(schema)
	if err == nil && v == nil {
		err = errors.New("the library returned no validator")
	}
	return v, err
}

func (s *session) handleValidate(m *inMsg) {
	res := resultOut{Op: "result", ID: m.ID}
	if len(res.ID) == 0 {
		res.ID = json.RawMessage("null")
	}
	v, ok := s.tools[m.toolName()]
	if !ok {
		res.Error = "unknown tool"
		s.send(res)
		return
	}
	var raw []byte
	switch {
	case m.Arguments != nil:
		raw = []byte(*m.Arguments)
	case m.ArgumentsBase64 != nil:
		b, err := base64.StdEncoding.DecodeString(*m.ArgumentsBase64)
		if err != nil {
			res.Error = "arguments_base64 is not valid base64"
			s.send(res)
			return
		}
		raw = b
	default:
		res.Error = "validate request without arguments or arguments_base64"
		s.send(res)
		return
	}
	verdict, err := s.validate(v, raw)
	if err != nil {
		res.Error = oneLine(err.Error())
		s.send(res)
		return
	}
	valid := verdict.Valid
	res.Valid = &valid
	if valid {
		res.Value = verdict.Value
	} else {
		res.Issues = verdict.Issues
		if len(res.Issues) == 0 {
			res.Issues = []Issue{{Path: "", Message: "rejected (the library gave no details)"}}
		}
	}
	s.send(res)
}

func (s *session) validate(v Validator, raw []byte) (verdict Verdict, err error) {
	if is := Gate(raw); is != nil {
		return Verdict{Valid: false, Issues: []Issue{*is}}, nil
	}
	defer func() {
		if p := recover(); p != nil {
			verdict, err = Verdict{}, fmt.Errorf("panic: %v", p)
		}
	}()
	return v.Validate(raw)
}

// toolName is carried in the "tool" field of validate messages as a string.
func (m *inMsg) toolName() string {
	var name string
	if err := json.Unmarshal(m.Tool, &name); err != nil {
		return ""
	}
	return name
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", " ")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 2000 {
		s = s[:2000] + "..."
	}
	return s
}

// PointerToken escapes one reference token for a JSON Pointer (RFC 6901).
func PointerToken(tok string) string {
	tok = strings.ReplaceAll(tok, "~", "~0")
	return strings.ReplaceAll(tok, "/", "~1")
}

// Pointer builds a JSON Pointer from unescaped reference tokens.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(PointerToken(t))
	}
	return b.String()
}

// Child appends one unescaped reference token to a JSON Pointer.
func Child(ptr, tok string) string {
	return ptr + "/" + PointerToken(tok)
}
