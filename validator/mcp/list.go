package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolproof/toolproof/validator/tool"
)

// The bounds of a tools/list answer, so a server that pages forever or lists huge schemas
// ends Start with an error naming the bound, or has the tool left out, instead of a hang.
const (
	MaxPages      = 1000     // tools/list pages read; more is an error
	MaxTools      = 10000    // tools listed; more is an error
	MaxSchemaSize = 1 << 20  // bytes of one inputSchema; a bigger one's tool is left out with the reason
	MaxListSize   = 64 << 20 // bytes of every inputSchema kept; more is an error
)

// list reads every page of tools/list and keeps the tools to test.
func (c *Client) list(s link) error {
	c.unsupported = map[string]string{}
	c.params = map[string][]paramHeader{}
	l := listing{seen: map[string]bool{}}
	cursor := ""
	for page := 0; ; page++ {
		if page == MaxPages {
			return fmt.Errorf("mcp: %s: tools/list still has more pages after %d (mcp.MaxPages)", c.where(), MaxPages)
		}
		res, err := c.listPage(s, cursor)
		if err != nil {
			return err
		}
		for _, t := range res.Tools {
			if err := c.add(&l, t); err != nil {
				return err
			}
		}
		if res.NextCursor == nil || *res.NextCursor == "" {
			break
		}
		if *res.NextCursor == cursor {
			return fmt.Errorf("mcp: %s: tools/list gave the same nextCursor %q twice", c.where(), cursor)
		}
		cursor = *res.NextCursor
	}
	return c.keep(l.all)
}

// listResult is one page of tools/list: a ListToolsResult.
type listResult struct {
	Tools      []listedTool `json:"tools"`
	NextCursor *string      `json:"nextCursor"`
}

// listedTool is one tool of a ListToolsResult, as far as toolproof reads it.
type listedTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Execution   struct {
		TaskSupport string `json:"taskSupport"`
	} `json:"execution"`
}

// listing is what the pages of tools/list gave so far.
type listing struct {
	all  []tool.Tool
	seen map[string]bool
	kept int // bytes of the schemas kept
}

// listPage asks for the page of tools/list at cursor ("" for the first).
func (c *Client) listPage(s link, cursor string) (listResult, error) {
	var res listResult
	params := []byte(`{}`)
	if cursor != "" {
		params, _ = json.Marshal(map[string]string{"cursor": cursor})
	}
	r, out := s.call(context.Background(),
		request{id: c.nextID.Add(1), method: "tools/list", params: c.withMeta(params),
			version: c.modern()}, c.opts.StartTimeout)
	switch {
	case out == denied || out == unreachable || out == broken:
		return res, c.startError(out, r.Bad)
	case out == timedOut:
		return res, fmt.Errorf("mcp: %s: no answer to tools/list within %v", c.where(), c.opts.StartTimeout)
	case out == ended:
		why, _ := s.reason()
		return res, fmt.Errorf("mcp: %s: the server ended during tools/list: %s", c.where(), why)
	case r.Bad != "" || r.Fault != "":
		return res, fmt.Errorf("mcp: %s: tools/list: %s", c.where(), r.Bad+r.Fault)
	case r.Error != nil:
		return res, fmt.Errorf("mcp: %s: tools/list failed: JSON-RPC error %d: %s", c.where(),
			r.Error.Code, r.Error.Message)
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		return res, fmt.Errorf("mcp: %s: tools/list answered with a result that is not a ListToolsResult: %s",
			c.where(), clip(string(r.Result), 200))
	}
	return res, nil
}

// add takes one listed tool into l, noting why it cannot be tested when it cannot; the error
// is a bound passed or a tool without a name.
func (c *Client) add(l *listing, t listedTool) error {
	if t.Name == "" {
		return fmt.Errorf("mcp: %s: tools/list gave a tool without a name", c.where())
	}
	if l.seen[t.Name] {
		c.note(fmt.Sprintf("the server lists tool %q more than once; the first is tested", t.Name))
		return nil
	}
	l.seen[t.Name] = true
	if len(l.seen) > MaxTools {
		return fmt.Errorf("mcp: %s: tools/list lists more than %d tools (mcp.MaxTools)", c.where(), MaxTools)
	}
	if len(t.InputSchema) > MaxSchemaSize {
		c.unsupported[t.Name] = fmt.Sprintf("has an inputSchema of %d bytes, more than %d (mcp.MaxSchemaSize)",
			len(t.InputSchema), MaxSchemaSize)
		t.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	if l.kept += len(t.InputSchema); l.kept > MaxListSize {
		return fmt.Errorf("mcp: %s: the tools/list schemas add up to more than %d bytes (mcp.MaxListSize)",
			c.where(), MaxListSize)
	}
	if t.Execution.TaskSupport == "required" {
		c.unsupported[t.Name] = "needs task augmentation (execution.taskSupport: required), which toolproof does not " +
			"send"
	}
	if c.opts.URL != "" && c.era == eraModern {
		hs, err := paramHeaders(t.InputSchema)
		if err != nil {
			c.unsupported[t.Name] = "has an x-mcp-header annotation the 2026-07-28 revision does not allow: " +
				err.Error()
		}
		c.params[t.Name] = hs
	}
	schema := t.InputSchema
	if len(schema) == 0 || string(schema) == "null" {
		schema = json.RawMessage(`{"type":"object"}`)
		c.note(fmt.Sprintf("tool %q has no inputSchema; tested as {\"type\":\"object\"}", t.Name))
	}
	l.all = append(l.all, tool.Tool{Name: t.Name, Description: t.Description, Parameters: schema,
		Source: c.nameOr() + " tools/list"})
	return nil
}

// keep records the listed tools and those to test (less what Options.Only, Skip and the
// unsupported leave out); the error says when nothing is left or an Only name is not listed.
func (c *Client) keep(all []tool.Tool) error {
	if len(all) == 0 {
		return fmt.Errorf("mcp: %s lists no tools", c.where())
	}
	c.listed = map[string]tool.Tool{}
	for _, t := range all {
		c.listed[t.Name] = t
		if why := c.leftOut(t.Name); why != "" {
			c.hidden = append(c.hidden, t.Name)
			if u := c.unsupported[t.Name]; u != "" && why == u {
				c.note(fmt.Sprintf("tool %q left out: it %s", t.Name, u))
			}
			continue
		}
		c.tools = append(c.tools, t)
	}
	for _, n := range c.opts.Only {
		if _, ok := c.listed[n]; !ok {
			return fmt.Errorf("mcp: --tool %s: %s does not list that tool (it lists %s)", n, c.where(),
				strings.Join(names(all), ", "))
		}
	}
	if len(c.tools) == 0 {
		return fmt.Errorf("mcp: %s: every listed tool (%s) is left out by --tool/--skip-tool", c.where(),
			strings.Join(names(all), ", "))
	}
	return nil
}

func (c *Client) nameOr() string {
	if c.name != "" {
		return c.name
	}
	return "mcp"
}

func names(ts []tool.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// leftOut says why a tool is not tested ("" when it is).
func (c *Client) leftOut(name string) string {
	if u := c.unsupported[name]; u != "" {
		return u
	}
	if slices.Contains(c.opts.Skip, name) {
		return "left out by --skip-tool"
	}
	if len(c.opts.Only) > 0 && !slices.Contains(c.opts.Only, name) {
		return "not among the --tool names"
	}
	return ""
}
