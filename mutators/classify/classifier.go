package classify

import (
	"fmt"

	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// Classifier classifies calls of a set of tools against their schemas. It is safe for concurrent
// use.
type Classifier struct {
	tools map[string]*mutators.Context
	defs  map[string]tool.Tool
}

// New prepares the tools for classifying: each compiled by the oracle, with what its sibling
// tools declare (for borrowed keys and enum values). A tool that cannot be compiled is skipped
// with its reason; its calls are then unknown_tool.
func New(tools []tool.Tool) (*Classifier, []tool.Skipped) {
	c := &Classifier{tools: map[string]*mutators.Context{}, defs: map[string]tool.Tool{}}
	sib := mutators.SiblingsOf(tools)
	var skipped []tool.Skipped
	for _, t := range tools {
		gk, err := oracle.Compile(t)
		if err != nil {
			skipped = append(skipped, tool.Skipped{Tool: t.Name, Source: t.Source, Reason: err.Error()})
			continue
		}
		if _, dup := c.tools[t.Name]; dup {
			skipped = append(skipped, tool.Skipped{Tool: t.Name, Source: t.Source,
				Reason: fmt.Sprintf("another tool is named %q; its calls are classified against the first", t.Name)})
			continue
		}
		c.tools[t.Name] = mutators.NewContext(gk, sib)
		c.defs[t.Name] = t
	}
	return c, skipped
}

// Tool returns the tool of that name, and whether the Classifier has it.
func (c *Classifier) Tool(name string) (tool.Tool, bool) {
	t, ok := c.defs[name]
	return t, ok
}

// Classify names the distortions of one call of the named tool (mutators.Context.Recognise); a
// tool the Classifier does not have gives the verdict unknown_tool.
func (c *Classifier) Classify(toolName string, args []byte) mutators.Recognition {
	ctx, ok := c.tools[toolName]
	if !ok {
		return mutators.Recognition{Reading: mutators.UnknownTool}
	}
	return ctx.Recognise(args)
}

// Result is one call and what Classify found in it.
type Result struct {
	Call
	mutators.Recognition
}

// All classifies every call, in order.
func (c *Classifier) All(calls []Call) []Result {
	out := make([]Result, len(calls))
	for i, call := range calls {
		out[i] = Result{Call: call, Recognition: c.Classify(call.Tool, call.Args)}
	}
	return out
}
