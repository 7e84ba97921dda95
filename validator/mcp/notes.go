package mcp

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

func (c *Client) note(n string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Contains(c.notes, n) {
		c.notes = append(c.notes, n)
	}
}

func (c *Client) count(form string) {
	c.mu.Lock()
	c.forms[form]++
	c.mu.Unlock()
}

// Forms counts the verdicts so far by the form of the answer: "rejected: JSON-RPC -32602",
// "rejected: isError, TypeScript SDK wording", "ran: plain result", "unclear: ..." and so on.
func (c *Client) Forms() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.forms))
	for k, v := range c.forms {
		out[k] = v
	}
	return out
}

// Notes are lines for the report: which forms the server answered in, how to classify unclear
// answers, schemas that differ, restarts.
func (c *Client) Notes() []string {
	forms := c.Forms()
	c.mu.Lock()
	notes := slices.Clone(c.notes)
	restarts := c.restarts
	c.mu.Unlock()
	if len(forms) > 0 {
		keys := make([]string, 0, len(forms))
		for k := range forms {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if forms[keys[i]] != forms[keys[j]] {
				return forms[keys[i]] > forms[keys[j]]
			}
			return keys[i] < keys[j]
		})
		var parts []string
		unclear := 0
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, forms[k]))
			if strings.HasPrefix(k, "unclear") {
				unclear += forms[k]
			}
		}
		notes = append(notes, "tools/call answers by form (shrinking included): "+strings.Join(parts, ", "))
		if unclear > 0 {
			notes = append(notes,
				fmt.Sprintf("%d answers were unclear (neither a validation error in a known wording nor a result; "+
					"an error answer to a valid call is a false_reject or gate_error): "+
					"classify the server's own wording with --reject-pattern REGEX or --ran-pattern REGEX", unclear))
		}
	}
	if restarts > 0 {
		if c.opts.URL != "" {
			notes = append(notes, fmt.Sprintf("a new session was started %d times", restarts))
		} else {
			notes = append(notes, fmt.Sprintf("the server was restarted %d times", restarts))
		}
	}
	notes = append(notes, c.protocolNotes(forms)...)
	if n := len(c.hidden); n > 0 {
		shown := c.hidden[:min(n, 6)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf(" and %d more", n-len(shown))
		}
		notes = append(notes,
			fmt.Sprintf("%d listed tools not tested (--tool, --skip-tool, unsupported): %s%s", n,
				strings.Join(shown, ", "), more))
	}
	return notes
}
