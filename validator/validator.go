package validator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/tool"
)

// A Validator turns tool definitions into gates. It is the thing under test.
type Validator interface {
	// Name says which validator this is, for reports.
	Name() string
	// Compile prepares a gate for one tool. An error means the validator refuses the tool's
	// schema; toolproof skips the tool and shows the reason.
	Compile(t tool.Tool) (Gate, error)
}

// A ToolSource is a validator that serves tools of its own (an MCP server, a module of native
// tools): when no tool file is given, its tools are the ones tested.
type ToolSource interface {
	Tools() ([]tool.Tool, error)
}

// A ValueBlind validator never says what its gates pass on to the tool (an MCP server answers
// only whether the tool ran), so no repair of its can be judged: the repair profile judges its
// acceptance only.
type ValueBlind interface {
	ValueBlind()
}

// A Closer validator holds something that must be let go when the run ends (a process, a
// connection); Close lets it go and says what went wrong doing so.
type Closer interface {
	Close() error
}

// A Fallible validator can stop serving before the run ends (an MCP server over HTTP that
// refuses toolproof or goes away); Err says why, nil while it serves.
type Fallible interface {
	Err() error
}

// A Noter validator has lines of its own for the report (an MCP server: the forms it answered
// in, its restarts).
type Noter interface {
	Notes() []string
}

// A Gate checks the raw argument text of calls to one tool. Check must be safe for concurrent
// use and must not keep or change args.
type Gate interface {
	Check(ctx context.Context, args []byte) Verdict
}

// A BatchGate checks many calls at once (an out-of-process validator pipelines them). The
// harness uses CheckBatch when a gate has it; the i-th verdict answers the i-th args.
type BatchGate interface {
	Gate
	CheckBatch(ctx context.Context, args [][]byte) []Verdict
}

// An Isolator gate can run one call alone, on a process of its own, so that a crash is blamed on
// the call that causes it. When a validator's process dies, every call in flight gets a Crash
// verdict; the harness runs each of them again with CheckAlone and keeps Crash only for those
// that crash alone too.
type Isolator interface {
	Gate
	CheckAlone(ctx context.Context, args []byte) Verdict
}

// A Bounded gate promises that Check returns promptly on any input (no I/O, no unbounded loop)
// and never writes into its argument, so the harness calls it without hang protection (a
// goroutine hand-off) and without copying the arguments to catch writes. The reference
// gatekeeper is one; a gate you did not write is not.
type Bounded interface {
	Gate
	Bounded()
}

// Fault says that a gate gave no verdict at all.
type Fault string

// The faults a gate can have instead of a verdict.
const (
	Crash         Fault = "crash"          // the validator panicked or its process died
	Timeout       Fault = "timeout"        // no answer within the time allowed
	ProtocolError Fault = "protocol_error" // an answer that makes no sense
	// GateError: the gate threw on the input (an exception out of the library or framework
	// under test, not a verdict); Detail holds its message and the top of its stack. An
	// adapter's own failure is a ProtocolError.
	GateError Fault = "gate_error"
)

// Verdict is a gate's answer on one call.
type Verdict struct {
	Valid    bool    // the call may go through
	Value    any     // with HasValue: the value the gate passes on to the tool (numbers json.Number)
	HasValue bool    // the gate said what it passes on
	Issues   []Issue // why the call was rejected
	Fault    Fault   // non-empty: no verdict (Valid is meaningless)
	Detail   string  // what went wrong, with Fault or Unclear
	// Death, with Crash: which death of the validator's process cut the call short (1, 2, ...
	// for one validator; 0 when not told). Calls with the same Death were in flight together,
	// and at most one of them caused it.
	Death uint64
	// Unclear: the answer says neither that the gate rejected the call nor that the call went
	// through (an MCP tool that failed after it ran, maybe). Counted per class with samples in
	// Detail; Valid is meaningless. Never a finding, but for an ErrorAnswer to a valid call.
	Unclear bool
	// ErrorAnswer, with Unclear: the answer was an error in no wording known as a gate's
	// rejection, and what it reads as. A valid call answered so is a false_reject (Refused) or a
	// gate_error (Threw); "" when the answer was no error.
	ErrorAnswer ErrorAnswer
	// NotSent: the gate could not be given this case at all (an MCP server takes arguments as
	// JSON-RPC params, so text that is not JSON cannot be sent). Counted as not applicable.
	NotSent bool
}

// An ErrorAnswer is what an unclear error answer reads as (Verdict.ErrorAnswer).
type ErrorAnswer string

// The error answers.
const (
	Refused ErrorAnswer = "refused" // the tool refused the call in its own words
	Threw   ErrorAnswer = "threw"   // the tool or its server threw: an exception, an internal error
)

// Reject is a rejecting verdict with the given issues.
func Reject(issues ...Issue) Verdict { return Verdict{Issues: issues} }

// Accept is an accepting verdict that passes on the input unchanged.
func Accept() Verdict { return Verdict{Valid: true} }

// AcceptValue is an accepting verdict that passes on v.
func AcceptValue(v any) Verdict { return Verdict{Valid: true, Value: v, HasValue: true} }

// Unclear is a verdict that cannot be read as accepted or rejected; detail says what came back.
func Unclear(detail string) Verdict { return Verdict{Unclear: true, Detail: detail} }

// NotSent is the verdict on a case the gate cannot be given; why says what kept it back.
func NotSent(why string) Verdict { return Verdict{NotSent: true, Detail: why} }

// Failed is a verdict for a gate that gave no answer.
func Failed(f Fault, detail string) Verdict { return Verdict{Fault: f, Detail: detail} }

// Issue is one problem found in the arguments.
type Issue struct {
	Path    string `json:"path"`              // JSON Pointer of the instance location ("" is the root)
	Keyword string `json:"keyword,omitempty"` // the schema keyword that failed, when known
	Message string `json:"message"`           // what is wrong; never quotes argument values
}

// String is "PATH: MESSAGE", with the root written (root).
func (i Issue) String() string {
	p := i.Path
	if p == "" {
		p = "(root)" // not "/", which is the pointer of the key ""
	}
	return p + ": " + i.Message
}

// Error is the error a gate returns for bad arguments: the tool and every issue found.
type Error struct {
	Tool   string
	Issues []Issue
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid arguments for tool %q", e.Tool)
	for i, is := range e.Issues {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(is.String())
	}
	return b.String()
}

// Correction is a text for the model that made the call: what to fix, field by field, in a
// form an agent can send back as the tool result.
func (e *Error) Correction() string {
	var b strings.Builder
	fmt.Fprintf(&b, "The call to tool %q was not run because its arguments are invalid. ", e.Tool)
	b.WriteString("Fix these and call the tool again with a JSON object of arguments:\n")
	for _, is := range e.Issues {
		loc := "the arguments"
		if is.Path != "" {
			loc = "`" + is.Path + "`"
		}
		fmt.Fprintf(&b, "- %s: %s\n", loc, is.Message)
	}
	return b.String()
}

// ConfigError says that a tool's schema cannot be used: it does not compile, refers to a remote
// resource, or has a pattern RE2 cannot compile. It is never about arguments.
type ConfigError struct {
	Tool   string
	Source string
	Err    error
}

func (e *ConfigError) Error() string {
	if e.Source != "" {
		return fmt.Sprintf("tool %q (%s): unusable schema: %v", e.Tool, e.Source, e.Err)
	}
	return fmt.Sprintf("tool %q: unusable schema: %v", e.Tool, e.Err)
}

func (e *ConfigError) Unwrap() error { return e.Err }

// Func makes a Validator from a Go function that compiles a tool into a check. The check returns
// the value it would pass on (nil when it passes on its input unchanged) or an error. The value
// may be any Go value encoding/json marshals (a struct a handler decodes into, a map, a slice);
// it is judged as its JSON encoding. An *Error gives its issues, a *NotSentError says the case
// never reaches the gate, and any other error becomes one issue at the root.
func Func(name string, compile func(t tool.Tool) (func(args []byte) (any, error), error)) Validator {
	return funcValidator{name, compile}
}

type funcValidator struct {
	name    string
	compile func(t tool.Tool) (func(args []byte) (any, error), error)
}

func (f funcValidator) Name() string { return f.name }

func (f funcValidator) Compile(t tool.Tool) (Gate, error) {
	check, err := f.compile(t)
	if err != nil {
		return nil, err
	}
	return funcGate(check), nil
}

type funcGate func(args []byte) (any, error)

func (g funcGate) Check(_ context.Context, args []byte) Verdict {
	v, err := g(args)
	var notSent *NotSentError
	switch {
	case errors.As(err, &notSent):
		return NotSent(notSent.Why)
	case err != nil:
		return Reject(IssuesOf(err)...)
	case v == nil:
		return Accept()
	}
	c, cerr := passedOn(v)
	if cerr != nil {
		return Failed(ProtocolError, fmt.Sprintf("the value passed on (%T) has no JSON encoding: %v", v, cerr))
	}
	return AcceptValue(c)
}

// passedOn is the JSON value of what a Func check passes on: a JSON value (map[string]any,
// []any, json.Number, ...) copied as it is, any other Go value through its JSON encoding, the
// way a handler's decoded struct reaches the code behind it.
func passedOn(v any) (any, error) {
	if c, err := jsonvalue.Clone(v); err == nil {
		return c, nil
	}
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// NotSentError is the error a Func check returns for a case its gate can never be given (text
// that is not JSON, or a root that is not an object, where the SDK's transport refuses it before
// the gate): the case is counted as not applicable, neither accepted nor rejected.
type NotSentError struct {
	Why string // what keeps the case back, for the report
}

func (e *NotSentError) Error() string { return "not sent to the gate: " + e.Why }

// IssuesOf returns the issues of an error: those of an *Error (or of an error with an
// Issues() []Issue method) found with errors.As, else one issue at the root with the error text.
func IssuesOf(err error) []Issue {
	var e *Error
	if errors.As(err, &e) {
		return e.Issues
	}
	var withIssues interface{ Issues() []Issue }
	if errors.As(err, &withIssues) {
		return withIssues.Issues()
	}
	return []Issue{{Path: "", Message: err.Error()}}
}
