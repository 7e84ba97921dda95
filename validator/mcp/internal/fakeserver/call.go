package fakeserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
)

// call answers tools/call: the tool's gate checks the arguments (loosened first in the lenient
// mode) and a rejection is answered the way the mode words it.
func (s *server) call(x *exchange) error {
	p := x.req.Params
	g := s.gates[p.Name]
	if g == nil {
		x.fail(-32602, "Tool "+p.Name+" not found", nil)
		return nil
	}
	args := []byte(p.Arguments)
	switch {
	case s.mode == "crash" && bytes.Contains(args, []byte("boom")):
		return ErrCrash
	case s.mode == "crash" && bytes.Contains(args, []byte("sleep")):
		return nil
	case s.mode == "lenient":
		args = loosen(args, g)
	}
	v := g.Check(context.Background(), args)
	switch {
	case v.Valid && s.mode == "ran-error":
		x.reply(textResult("upstream service refused the API key", true))
	case v.Valid:
		x.reply(textResult("done", false))
	case s.mode == "correct-rpc":
		x.fail(-32602, rejection(p.Name, v), nil)
	case s.mode == "lenient":
		x.reply(textResult("Input validation error: cannot use "+string(p.Arguments), true))
	default:
		x.reply(textResult(rejection(p.Name, v), true))
	}
	return nil
}

// textResult is a tools/call result of one text, an error result when isError.
func textResult(text string, isError bool) map[string]any {
	res := map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
	if isError {
		res["isError"] = true
	}
	return res
}

// rejection is the TypeScript SDK's wording of the issues of v against tool name.
func rejection(name string, v validator.Verdict) string {
	var msgs []string
	for _, is := range v.Issues {
		msgs = append(msgs, is.Message+" at "+dotPath(is.Path))
	}
	return "Input validation error: Invalid arguments for tool " + name + ": " + strings.Join(msgs, "\n")
}

// loosen is the planted leniency: a top-level integer given as a string of digits becomes the
// integer, and keys the schema does not declare are dropped.
func loosen(args []byte, g *oracle.Gatekeeper) []byte {
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
