// Package harness proves a validator of tool-call arguments holds: for every tool it draws
// valid arguments and their distortions (through rapid, so failures shrink), asks the validator
// for a verdict on each, and turns wrong verdicts into findings. It runs inside go test (Check,
// fuzz targets) or on its own (Run), and keeps failing cases in a regression corpus that is
// replayed first.
package harness

import (
	"fmt"
	"time"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/generate"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/report"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// Options configure a run. The zero value is a strict run of every mutator, 100 values per
// tool (or rapid's -rapid.checks) from a random seed (or rapid's -rapid.seed) that the report
// gives.
type Options struct {
	Checks          int                // valid values drawn per tool, each with one distortion per class (0: 100, or -rapid.checks)
	Seed            uint64             // the same seed gives the same cases and report (0: -rapid.seed, else random)
	ShrinkTime      time.Duration      // the most time spent minimising one finding (0: -rapid.shrinktime, 30s)
	Mutators        []mutators.Mutator // nil: every mutator
	Profile         report.Profile     // "" is Strict
	Close           bool               // treat objects that do not say otherwise as closed (OpenAI strict)
	RequireLocation bool               // imprecise_location fails the run
	OnlyReject      bool               // send only must-reject cases to the gate (a correct gate runs none of them)
	Timeout         time.Duration      // an in-process gate slower than this on one case is hung (default 5s)
	CorpusDir       string             // regression cases: replayed first, failures saved here ("": none)
	Jobs            int                // Run: tools checked in parallel (0: GOMAXPROCS)
	Shard, Shards   int                // Run: check only tools whose index % Shards == Shard
	Siblings        []tool.Tool        // tools to borrow keys and enum values from (default: the tools checked)
	Progress        func(done, total int)

	observe func(tool string, cs []cases.Case) // tests: sees the cases of every scorecard draw
}

func (o Options) profile() report.Profile {
	if o.Profile == "" {
		return report.Strict
	}
	return o.Profile
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 5 * time.Second
	}
	return o.Timeout
}

func (o Options) mutators() []mutators.Mutator {
	if o.Mutators == nil {
		return mutators.All()
	}
	return o.Mutators
}

// prepared is one tool ready to be checked.
type prepared struct {
	tool   tool.Tool
	hash   string // tool.SchemaHash, computed once
	oracle *validator.Gatekeeper
	gen    *generate.Generator
	mctx   *mutators.Context
	gate   validator.Gate
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
	if _, ok := v.(validator.Reference); ok {
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
	gk, err := validator.Compile(t)
	if err != nil {
		return nil, &tool.Skipped{Tool: t.Name, Source: t.Source, Reason: unwrapConfig(err)}
	}
	g, err := generate.New(gk)
	if err != nil {
		return nil, &tool.Skipped{Tool: t.Name, Source: t.Source, Reason: err.Error()}
	}
	return &prepared{tool: t, hash: t.SchemaHash(), oracle: gk, gen: g, mctx: mutators.NewContext(gk, sib)}, nil
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
