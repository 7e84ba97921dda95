package stdio

// A child that serves tools of its own (PROTOCOL.md, "Tools served by the validator"): its
// hello carries "tools": true, and {"op":"tools"} asks for the list. Kept apart from the
// request, crash and restart code: a tools request is one line out and one line back.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// ToolServer is a Client whose child serves tools of its own: a validator.ToolSource.
type ToolServer struct {
	*Client
}

// Tools asks the child for its tools (see Client.ListTools).
func (s ToolServer) Tools() ([]tool.Tool, error) { return s.ListTools() }

// Validator returns c as the validator to use: a ToolServer when the child said in hello that
// it serves tools of its own, else c itself.
func (c *Client) Validator() validator.Validator {
	if c.serves {
		return ToolServer{c}
	}
	return c
}

// ServesTools reports whether the child's hello said "tools": true.
func (c *Client) ServesTools() bool { return c.serves }

// ListTools sends {"op":"tools"} to the child (the first one when there are several) and returns
// the tools it answers with, in its order. It fails when the child does not serve tools, dies,
// answers with an error or with a list that is not one of {name, description, parameters}.
func (c *Client) ListTools() ([]tool.Tool, error) {
	if !c.serves {
		return nil, errors.New(`the validator does not serve tools (its hello has no "tools": true)`)
	}
	var ch *child
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if ch, err = c.current(c.procs[0]); err != nil {
			return nil, err
		}
		line, err := c.askTools(ch)
		if errors.Is(err, errChildDied) {
			continue // restarted meanwhile: ask the new child
		}
		if err != nil {
			return nil, err
		}
		return parseToolList(line, c.Name())
	}
	return nil, fmt.Errorf("listing tools: the validator died 3 times while answering")
}

// askTools sends a tools request to ch and waits for the answer line.
func (c *Client) askTools(ch *child) ([]byte, error) {
	reply := make(chan []byte, 1)
	return ask(c, ch, []byte(`{"op":"tools"}`+"\n"), reply, func() {
		ch.listWaiters = append(ch.listWaiters, reply)
	}, func(limit time.Duration) error {
		return fmt.Errorf("listing tools: no answer within %v", limit)
	})
}

// toolListAnswered hands a "tools" answer to the oldest waiting ListTools; false when none
// waits. line is copied: the reader reuses its buffer.
func (c *Client) toolListAnswered(ch *child, line []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch.dead {
		return true
	}
	if len(ch.listWaiters) == 0 {
		return false
	}
	w := ch.listWaiters[0]
	ch.listWaiters = ch.listWaiters[1:]
	w <- bytes.Clone(line)
	return true
}

// parseToolList reads {"op":"tools","tools":[...]} (or {"op":"tools","error":"..."}); from
// names the validator in messages and in each tool's Source.
func parseToolList(line []byte, from string) ([]tool.Tool, error) {
	var ans struct {
		Tools *[]json.RawMessage `json:"tools"`
		Error *string            `json:"error"`
	}
	if err := json.Unmarshal(line, &ans); err != nil {
		return nil, fmt.Errorf(`the tools answer is not {"op":"tools","tools":[...]}: %v`, err)
	}
	if ans.Error != nil {
		return nil, fmt.Errorf("the validator could not list its tools: %s", *ans.Error)
	}
	if ans.Tools == nil {
		return nil, errors.New(`the tools answer has no "tools" array`)
	}
	out := make([]tool.Tool, 0, len(*ans.Tools))
	for i, raw := range *ans.Tools {
		var t struct {
			Name        *string         `json:"name"`
			Description *string         `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(raw, &t); err != nil || t.Name == nil || *t.Name == "" {
			return nil, fmt.Errorf("tools[%d] of the tools answer is not {name, description, parameters} with a "+
				"non-empty string name", i)
		}
		params := bytes.TrimSpace(t.Parameters)
		if len(params) == 0 || bytes.Equal(params, []byte("null")) {
			params = []byte("{}")
		}
		desc := ""
		if t.Description != nil {
			desc = *t.Description
		}
		out = append(out, tool.Tool{Name: *t.Name, Description: desc, Parameters: json.RawMessage(params),
			Source: fmt.Sprintf("validator %s:tools[%d]", from, i)})
	}
	return out, nil
}
