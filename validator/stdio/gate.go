package stdio

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// request is one validate message on its way.
type request struct {
	id    uint64
	line  []byte // the whole message, newline included; sent again after a restart
	batch *batch
	index int // in batch.out

	// Guarded by c.mu.
	child    *child // the child it was given to; nil while it waits for one
	sent     bool   // taken by child's sender
	seq      uint64 // order of writing on child
	deadline time.Time
	finished bool
}

// batch collects the verdicts of one CheckBatch call.
type batch struct {
	out       []validator.Verdict
	done      chan struct{} // closed when remaining reaches 0
	remaining int           // guarded by c.mu
	abandoned bool          // guarded by c.mu: the caller returned (cancelled); out is not ours
}

// finish ends r with v, once, and frees its window slot. Called with c.mu held.
func (c *Client) finish(r *request, v validator.Verdict) {
	if r.finished {
		return
	}
	r.finished = true
	r.child = nil
	r.line = nil
	delete(c.pending, r.id)
	b := r.batch
	if !b.abandoned {
		b.out[r.index] = v
		c.count(v)
	}
	b.remaining--
	if b.remaining == 0 {
		close(b.done)
	}
	<-c.sem
}

// count adds a verdict to the stats. Called with c.mu held.
func (c *Client) count(v validator.Verdict) {
	switch v.Fault {
	case "":
		c.stats.Verdicts++
	case validator.Crash:
		c.stats.Crashes++
	case validator.Timeout:
		c.stats.Timeouts++
	default:
		c.stats.ProtocolErrors++
	}
}

// submit hands requests (each holding a window slot) to the current child, or holds them for
// the next one while a restart is under way.
func (c *Client) submit(rs []*request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Requests += int64(len(rs))
	if c.closed || c.broken != "" {
		v := c.deadVerdict()
		for _, r := range rs {
			c.finish(r, v)
		}
		return
	}
	ch := c.cur
	for _, r := range rs {
		c.pending[r.id] = r
		if ch != nil {
			r.child = ch
			ch.queue = append(ch.queue, outItem{req: r, line: r.line})
		} else {
			c.waiting = append(c.waiting, r)
		}
	}
	if ch != nil {
		ch.cond.Signal()
	}
}

// gate checks calls of one registered tool.
type gate struct {
	c     *Client
	field []byte // `,"tool":"NAME",`
}

func newGate(c *Client, name string) *gate {
	f := append([]byte(`,"tool":`), jsonvalue.AppendString(nil, name)...)
	return &gate{c: c, field: append(f, ',')}
}

// Check asks the child for a verdict on one call.
func (g *gate) Check(ctx context.Context, args []byte) validator.Verdict {
	return g.CheckBatch(ctx, [][]byte{args})[0]
}

// CheckBatch pipelines the calls, keeping the window full, and returns one verdict for each.
func (g *gate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	c := g.c
	out := make([]validator.Verdict, len(args))
	if len(args) == 0 {
		return out
	}
	reqs := make([]request, len(args))
	b := &batch{out: out, remaining: len(args), done: make(chan struct{})}
	group := make([]*request, 0, min(len(args), cap(c.sem)))
	n := 0 // requests submitted
	for n < len(args) {
		if !c.acquire(ctx) {
			break
		}
		k := 1
	more:
		for n+k < len(args) && k < cap(group) {
			select {
			case c.sem <- struct{}{}:
				k++
			default:
				break more
			}
		}
		group = group[:0]
		for i := n; i < n+k; i++ {
			r := &reqs[i]
			r.id = c.nextID.Add(1)
			r.batch, r.index = b, i
			r.line = g.line(r.id, args[i])
			group = append(group, r)
		}
		c.submit(group)
		n += k
	}
	if n == len(args) {
		select {
		case <-b.done:
			return out
		case <-ctx.Done():
		}
	}

	// Cancelled: what has no verdict yet gets Timeout "cancelled"; late answers are dropped.
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.remaining == 0 {
		return out
	}
	b.abandoned = true
	for i := range args {
		if i >= n || !reqs[i].finished {
			out[i] = cancelled()
			c.count(out[i])
		}
	}
	c.stats.Requests += int64(len(args) - n)
	return out
}

// line builds the validate message for args.
func (g *gate) line(id uint64, args []byte) []byte {
	b := make([]byte, 0, len(args)+len(args)/8+len(g.field)+64)
	b = append(b, `{"op":"validate","id":`...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, g.field...)
	if utf8.Valid(args) {
		b = append(b, `"arguments":`...)
		b = jsonvalue.AppendString(b, string(args))
	} else {
		b = append(b, `"arguments_base64":"`...)
		b = base64.StdEncoding.AppendEncode(b, args)
		b = append(b, '"')
	}
	return append(b, "}\n"...)
}

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

// verdictOf reads a result message.
func verdictOf(m map[string]any) validator.Verdict {
	if e, has := m["error"]; has {
		s, ok := e.(string)
		if !ok {
			s = jsonText(e)
		}
		return validator.Failed(validator.ProtocolError, "the validator failed on this request: "+s)
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
