package harness

import (
	"fmt"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// prepared is one tool ready to be checked.
type prepared struct {
	tool   tool.Tool
	hash   string // tool.SchemaHash, computed once
	oracle *oracle.Gatekeeper
	gen    *generate.Generator
	mctx   *mutators.Context
	gate   validator.Gate
	// defaults are the defaults the tool's schema declares (nil: none), for declared_default.
	defaults *declared
	places   *placeMemo  // the schema places of the tool's findings (placeFindings)
	schema   *schemaText // what a message may repeat without leaking (leak.go)
}

// siblingsFor is what the tools of the file declare, for borrowed keys and enum values.
func siblingsFor(tools []tool.Tool, opts Options) *mutators.Siblings {
	if opts.Siblings != nil {
		tools = opts.Siblings
	}
	return mutators.SiblingsOf(tools)
}

// prepareOne compiles one tool for the oracle, the generator and the validator under test; a
// tool any of them cannot use is skipped with its reason.
func prepareOne(t tool.Tool, v validator.Validator, opts Options, sib *mutators.Siblings) (*prepared, *tool.Skipped) {
	p, skip := prepareOracle(t, opts.Close, sib)
	if skip != nil {
		return nil, skip
	}
	// The reference gate is the oracle compiled again: take the oracle.
	if _, ok := v.(oracle.Reference); ok {
		p.gate = p.oracle
		return p, nil
	}
	gate, err := compileGate(v, p.tool)
	if err != nil {
		return nil, &tool.Skipped{Tool: p.tool.Name, Source: p.tool.Source,
			Reason: fmt.Sprintf("validator %s refused the tool: %v", v.Name(), err)}
	}
	p.gate = gate
	return p, nil
}

// prepareOracle is the one way a tool is made ready to draw cases for: closed when asked,
// compiled for the oracle and the generator, with the mutators' context; a tool they cannot use
// is skipped with its reason. The gate is left for the caller.
func prepareOracle(t tool.Tool, close bool, sib *mutators.Siblings) (*prepared, *tool.Skipped) {
	if close {
		t = tool.Close(t)
	}
	gk, err := oracle.Compile(t)
	if err != nil {
		return nil, &tool.Skipped{Tool: t.Name, Source: t.Source, Reason: unwrapConfig(err)}
	}
	g, err := generate.New(gk)
	if err != nil {
		return nil, &tool.Skipped{Tool: t.Name, Source: t.Source, Reason: err.Error()}
	}
	return &prepared{tool: t, hash: t.SchemaHash(), oracle: gk, gen: g, mctx: mutators.NewContext(gk, sib),
		defaults: declaredDefaults(t.Parameters), places: &placeMemo{at: map[string]string{}},
		schema: newSchemaText(t.Parameters)}, nil
}

// compileGate calls v.Compile, turning a panic into an error.
func compileGate(v validator.Validator, t tool.Tool) (g validator.Gate, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic while compiling: %v", r)
		}
	}()
	return v.Compile(t)
}

func unwrapConfig(err error) string {
	if ce, ok := err.(*validator.ConfigError); ok {
		return "unusable schema: " + ce.Err.Error()
	}
	return err.Error()
}
