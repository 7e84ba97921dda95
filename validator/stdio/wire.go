package stdio

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// lineChunk is the size of the buffers validate messages are built in: small messages share
// one, which lives until all of them are answered.
const lineChunk = 16 << 10

// lineOverhead is the size of a validate message without its tool field and arguments:
// {"op":"validate","id":N,"arguments_base64":""}, a line end and N of up to 20 digits.
const lineOverhead = len(`{"op":"validate","id":"arguments_base64":""}`) + 1 + 20

// lineSize is the size of the validate message for args (measured by measureArguments) when
// args is ASCII, else a size enough for most texts: appendLine grows the buffer for the others.
func (g *gate) lineSize(args []byte, extra int, ascii bool) int {
	n := len(args) + extra
	if !ascii {
		n = max(n+len(args)/8, (len(args)+2)/3*4)
	}
	return lineOverhead + len(g.field) + n
}

// appendLine appends the validate message for args, measured by measureArguments, to b.
func (g *gate) appendLine(b []byte, id uint64, args []byte, extra int, ascii bool) []byte {
	b = append(b, `{"op":"validate","id":`...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, g.field...)
	start := len(b)
	b = append(b, `"arguments":`...)
	if ascii {
		b = appendASCII(b, args, extra)
	} else if out, ok := jsonvalue.AppendStringBytes(b, args); ok {
		b = out
	} else {
		b = append(b[:start], `"arguments_base64":"`...)
		b = base64.StdEncoding.AppendEncode(b, args)
		b = append(b, '"')
	}
	return append(b, "}\n"...)
}

// escapeExtra is how many bytes the escape of an ASCII byte adds: 1 for \" \\ \n \r \t, 5 for
// the other control characters (\u00XX), 0 for the rest.
var escapeExtra = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = 5
	}
	for _, c := range []byte{'"', '\\', '\n', '\r', '\t'} {
		t[c] = 1
	}
	return t
}()

// measureArguments reports how many bytes escaping adds to the ASCII bytes of args, and whether
// args is all ASCII.
func measureArguments(args []byte) (extra int, ascii bool) {
	high := byte(0)
	for _, c := range args {
		extra += int(escapeExtra[c])
		high |= c
	}
	return extra, high < utf8.RuneSelf
}

// appendASCII appends ASCII args, whose escapes add extra bytes, as a JSON string: written in
// place, the common case.
func appendASCII(dst, args []byte, extra int) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(args)+extra+2)[:n+len(args)+extra+2]
	out := dst[n:]
	out[0] = '"'
	if extra == 0 {
		copy(out[1:], args)
	} else {
		j := 1
		for _, c := range args {
			switch escapeExtra[c] {
			case 0:
				out[j] = c
				j++
			case 1:
				out[j] = '\\'
				switch c {
				case '\n':
					c = 'n'
				case '\r':
					c = 'r'
				case '\t':
					c = 't'
				}
				out[j+1] = c
				j += 2
			default:
				out[j], out[j+1], out[j+2], out[j+3], out[j+4], out[j+
					5] = '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf]
				j += 6
			}
		}
	}
	out[len(out)-1] = '"'
	return dst
}

const hexDigits = "0123456789abcdef"

// toolLine builds the tool message for t; its parameters go as given, compacted to one line.
func toolLine(t tool.Tool) ([]byte, error) {
	params := []byte(t.Parameters)
	if len(bytes.TrimSpace(params)) == 0 {
		params = []byte("{}")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, params); err != nil {
		return nil, fmt.Errorf("parameters are not JSON: %v", err)
	}
	p := buf.Bytes()
	// Line separators can only be inside strings here; some line readers split on them.
	p = bytes.ReplaceAll(p, []byte("\u2028"), []byte(`\u2028`))
	p = bytes.ReplaceAll(p, []byte("\u2029"), []byte(`\u2029`))
	b := append([]byte(`{"op":"tool","tool":{"name":`), jsonvalue.AppendString(nil, t.Name)...)
	if t.Description != "" {
		b = append(b, `,"description":`...)
		b = jsonvalue.AppendString(b, t.Description)
	}
	b = append(b, `,"parameters":`...)
	b = append(b, p...)
	return append(b, "}}\n"...), nil
}

// gateErrorOf reads {"message": S, "stack": S}: the gate threw on the input (an exception out of
// the library or framework under test, not the adapter's failure).
func gateErrorOf(g any) validator.Verdict {
	m, ok := g.(map[string]any)
	msg, okMsg := m["message"].(string)
	if !ok || !okMsg {
		return protocolError(`the validator sent a result whose "gate_error" is not {"message": string, "stack"?: ` +
			`string}`)
	}
	detail := msg
	if stack, _ := m["stack"].(string); strings.TrimSpace(stack) != "" {
		detail += "\n" + strings.TrimSpace(stack)
	}
	return validator.Failed(validator.GateError, detail)
}

// verdictOf reads a result message.
func verdictOf(m map[string]any) validator.Verdict {
	if e, has := m["error"]; has {
		s, ok := e.(string)
		if !ok {
			s = jsonText(e)
		}
		return validator.Failed(validator.ProtocolError, "the validator failed on this request: "+s)
	}
	if g, has := m["gate_error"]; has {
		return gateErrorOf(g)
	}
	if why, has := m["not_sent"]; has {
		s, ok := why.(string)
		if !ok {
			return protocolError(`the validator sent a result whose "not_sent" is %s, not a string`,
				jsonvalue.TypeName(why))
		}
		return validator.NotSent(s)
	}
	if detail, has := m["unclear"]; has {
		s, ok := detail.(string)
		if !ok {
			return protocolError(`the validator sent a result whose "unclear" is %s, not a string`,
				jsonvalue.TypeName(detail))
		}
		issues, err := issuesOf(m["issues"])
		if err != nil {
			return protocolError("the validator sent a result with %v", err)
		}
		v := validator.Unclear(s)
		v.Issues = issues
		if raw, has := m["error_answer"]; has {
			a, _ := raw.(string)
			if a != string(validator.Refused) && a != string(validator.Threw) {
				return protocolError(`the validator sent a result whose "error_answer" is %s, not "refused" or "threw"`,
					jsonText(raw))
			}
			v.ErrorAnswer = validator.ErrorAnswer(a)
		}
		return v
	}
	raw, has := m["valid"]
	if !has {
		return protocolError(`the validator sent a result without "valid"`)
	}
	valid, ok := raw.(bool)
	if !ok {
		return protocolError(`the validator sent a result whose "valid" is %s, not a boolean`, jsonvalue.TypeName(raw))
	}
	if valid {
		v := validator.Verdict{Valid: true}
		if val, has := m["value"]; has {
			v.Value, v.HasValue = val, true
		}
		return v
	}
	issues, err := issuesOf(m["issues"])
	if err != nil {
		return protocolError("the validator sent a result with %v", err)
	}
	return validator.Verdict{Issues: issues}
}

// issuesOf reads the issues of a result; "/" is taken for the root "".
func issuesOf(v any) ([]validator.Issue, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf(`"issues" that is %s, not an array`, jsonvalue.TypeName(v))
	}
	issues := make([]validator.Issue, 0, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("issue %d that is %s, not an object", i, jsonvalue.TypeName(e))
		}
		var is validator.Issue
		for _, f := range []struct {
			key string
			dst *string
		}{{"path", &is.Path}, {"message", &is.Message}, {"keyword", &is.Keyword}} {
			x, has := m[f.key]
			if !has || x == nil {
				continue
			}
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("issue %d whose %q is %s, not a string", i, f.key, jsonvalue.TypeName(x))
			}
			*f.dst = s
		}
		if is.Path == "/" {
			is.Path = ""
		}
		if is.Path != "" && !strings.HasPrefix(is.Path, "/") {
			return nil, fmt.Errorf("issue %d whose path is not a JSON Pointer", i)
		}
		issues = append(issues, is)
	}
	return issues, nil
}

func protocolError(format string, args ...any) validator.Verdict {
	return validator.Failed(validator.ProtocolError, fmt.Sprintf(format, args...))
}

// readID reads a request id: a non-negative integer.
func readID(v any) (uint64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseUint(string(n), 10, 64)
	return id, err == nil
}
