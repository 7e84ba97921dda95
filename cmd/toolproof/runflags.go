package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/baseline"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/classify"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/stdio"
	"github.com/toolproof/toolproof/validator/tool"
)

type runFlags struct {
	tools      multiFlag
	validators multiFlag
	checks     int
	seed       uint64
	muts       string
	profile    string
	close      bool
	jobs       int
	shard      string
	shards     int
	shardFrom  string // where the shard came from: the flag or a variable
	format     string
	reports    reportFlags
	sarifFile  string
	baseline   string
	ids        multiFlag
	save       string
	requireLoc bool
	// blockDefaults: declared_default (a default the schema shown to the model declares, filled
	// in) fails the run.
	blockDefaults bool
	timeout       time.Duration
	window        int
	processes     int
	maxSkipped    int
	cpuprofile    string
	maxTime       time.Duration
	weights       string // a weights file (toolproof classify --weights)
	gen           bool   // the flags of run (which draws new cases) were registered
	mcp           mcpFlags

	// childStderr is --validator-stderr: file (the validators' stderr captured, stderrLog) or pass.
	childStderr string
	captured    *stderrLog // the capture of this run's validators' stderr (nil: passed through)
}

// mcpFlags are the flags for mcp: servers (and --only-reject, --tool and --skip-tool, which any
// validator honours).
type mcpFlags struct {
	rejectPattern, ranPattern string
	onlyReject, sep1303       bool
	only, skip, headers       multiFlag
	opts                      mcp.Options // the patterns compiled (options)
}

func (m *mcpFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.rejectPattern, "reject-pattern", "",
		"an error answer (mcp: an isError text or JSON-RPC error; any validator's unclear error answer) matching "+
			"this `REGEXP` is a rejection (the tool's own wording)")
	fs.StringVar(&m.ranPattern, "ran-pattern", "",
		"an error answer (mcp: an isError text; any validator's unclear error answer) matching this `REGEXP` "+
			"means the tool ran, then failed")
	fs.BoolVar(&m.onlyReject, "only-reject", false,
		"send only the must-reject cases (a correct gate runs none of them; for servers whose tools have effects)")
	fs.Var(&m.only, "tool",
		"test only the tool of this `NAME` (repeatable; any validator, any tool file; a name no tool has is an error)")
	fs.Var(&m.skip, "skip-tool",
		"leave the tool of this `NAME` out (repeatable; any validator, any tool file; a name no tool has is an error)")
	fs.Var(&m.headers, "header",
		"mcp:URL: a `HEADER` ('NAME: VALUE') sent on every HTTP request (repeatable); $VAR in VALUE reads the "+
			"environment; values are never shown")
	fs.BoolVar(&m.sep1303, "require-sep1303", false,
		"mcp: a JSON-RPC -32602 rejection on protocol 2025-11-25 or later is a finding (SEP-1303: input validation "+
			"errors are isError tool results); by default a note")
}

func (m *mcpFlags) compile() error {
	for _, p := range []struct {
		flag, text string
		dst        **regexp.Regexp
	}{{"--reject-pattern", m.rejectPattern, &m.opts.Wording.Reject}, {"--ran-pattern",
		m.ranPattern, &m.opts.Wording.Ran}} {
		if p.text == "" {
			continue
		}
		re, err := regexp.Compile(p.text)
		if err != nil {
			return usagef("%s: %v", p.flag, err)
		}
		*p.dst = re
	}
	m.opts.SEP1303 = m.sep1303
	h, err := mcp.ParseHeaders(m.headers, os.LookupEnv)
	if err != nil {
		return usagef("%v", err)
	}
	m.opts.Header = h
	return nil
}

func (f *runFlags) register(fs *flag.FlagSet, gen bool) {
	toolsFlag(fs, &f.tools, "`PATH`: a tool file or directory (repeatable; default: the embedded corpus)")
	fs.Var(&f.validators, "validator",
		"`SPEC`: the validator to test, a name from 'toolproof validators', builtin:NAME, exec:COMMAND, node:PATH, "+
			"mcp:COMMAND or mcp:http(s)://URL (repeatable: a comparison)")
	fs.StringVar(&f.profile, "profile", "strict",
		"`PROFILE`: strict (every distortion must be rejected) or repair (accepting is allowed when the value passed "+
			"on equals the original)")
	closeFlag(fs, &f.close,
		"treat every object that does not say otherwise as additionalProperties:false (OpenAI strict)")
	reportFormatFlag(fs, &f.format)
	fs.Var(&f.reports, "report",
		"`FORMAT=FILE`: write one more report of the run to FILE (repeatable: --report html=toolproof.html --report "+
			"sarif=toolproof.sarif)")
	sarifFileFlag(fs, &f.sarifFile)
	fs.BoolVar(&f.requireLoc, "require-location", false,
		"fail when no issue of a rejection is at the distorted place, inside it, or above it only as far as the "+
			"schema lets a gate know (the object that lacks or holds the key, the anyOf/oneOf/not or if that chose); "+
			"one issue at the root locates only the root")
	fs.BoolVar(&f.blockDefaults, "block-declared-defaults", false,
		"fail on declared_default: a valid call passed on with a default filled in that the schema shown to the "+
			"model declares (reported, not failed, otherwise)")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second,
		"the `DURATION` one verdict may take before the case is a timeout")
	fs.IntVar(&f.window, "window", 0,
		fmt.Sprintf("`N` requests in flight to each process of an external validator (0: from %d, doubled up to %d "+
			"while it answers quickly; MCP: %d over stdio, %d over HTTP)",
			stdio.DefaultWindow, stdio.MaxWindow, mcp.DefaultWindow, mcp.DefaultHTTPWindow))
	fs.IntVar(&f.processes, "processes", 1, "`N` processes of an external validator run side by side")
	f.mcp.register(fs)
	fs.StringVar(&f.childStderr, "validator-stderr", "file",
		"`WHERE` the stderr of validators and MCP servers goes: file (a temporary file, named on stderr and under "+
			"the text report; toolproof's own lines still show) or pass (straight through to stderr)")
	maxSkippedFlag(fs, &f.maxSkipped)
	f.gen = gen
	if gen {
		fs.IntVar(&f.checks, "checks", 100, "`N` valid values drawn per tool (each with one distortion per class)")
		fs.Uint64Var(&f.seed, "seed", 0, "`SEED` for the cases (0: a random seed, printed in the report)")
		mutatorsFlag(fs, &f.muts, "`LIST` of distortion classes, comma-separated")
		fs.IntVar(&f.jobs, "jobs", 0, "`N` tools checked in parallel (default: the number of CPUs)")
		fs.StringVar(&f.shard, "shard", "",
			"`I/N`: check only the tools whose index modulo n is i (default: from TOOLPROOF_SHARD, "+
				"JOB_COMPLETION_INDEX, CIRCLE_NODE_INDEX, BUILDKITE_PARALLEL_JOB or CI_NODE_INDEX)")
		fs.IntVar(&f.shards, "shards", 0,
			"`N`, the number of shards, when the index comes from a variable (JOB_COMPLETION_INDEX has no count of "+
				"its own)")
		fs.StringVar(&f.save, "save", "",
			"`DIR` to save the minimal failing cases in (replay them with toolproof replay)")
		fs.DurationVar(&f.maxTime, "max-time", 0,
			"stop the run after this `DURATION` and write the report of what was checked, as SIGINT does (exit "+
				"status 3; 0: no limit)")
		fs.StringVar(&f.cpuprofile, "cpuprofile", "",
			"write a CPU profile of the run to this `FILE` (for 'go tool pprof')")
		fs.StringVar(&f.weights, "weights", "",
			"draw the classes in the proportions of this `FILE` (toolproof classify --weights), each class at least "+
				"a quarter of an even share")
		fs.StringVar(&f.baseline, "baseline", "",
			"`REPORT.json` listing the known findings: replayed first; those that still reproduce do not fail the "+
				"run, those that no longer do (fixed) fail it")
	} else {
		fs.Var(&f.ids, "id", "replay only the finding with this `ID` (repeatable; replaying a JSON report)")
	}
}

func (f *runFlags) options() (harness.Options, error) {
	opts := harness.Options{Close: f.close, RequireLocation: f.requireLoc, Timeout: f.timeout, Jobs: f.jobs,
		CorpusDir: f.save, OnlyReject: f.mcp.onlyReject, DeclaredDefaultsBlock: f.blockDefaults}
	if err := f.mcp.compile(); err != nil {
		return opts, err
	}
	if f.childStderr != "file" && f.childStderr != "pass" {
		return opts, usagef("--validator-stderr %q: want file or pass", f.childStderr)
	}
	switch f.profile {
	case "strict":
		opts.Profile = harness.Strict
	case "repair":
		opts.Profile = harness.Repair
	default:
		return opts, usagef("--profile %q: want strict or repair", f.profile)
	}
	if f.muts != "" {
		ms, err := mutators.Select(f.muts)
		if err != nil {
			return opts, usagef("--mutators: %v", err)
		}
		opts.Mutators = ms
	}
	if f.gen {
		i, n, from, err := pickShard(f.shard, f.shards, os.Getenv)
		if err != nil {
			return opts, err
		}
		opts.Shard, opts.Shards, f.shardFrom = i, n, from
	}
	if f.processes < 1 {
		return opts, usagef("--processes must be at least 1")
	}
	if err := checkFormat(f.format); err != nil {
		return opts, err
	}
	if f.weights != "" {
		w, err := classify.ReadWeights(f.weights)
		if err != nil {
			return opts, usagef("--weights: %v", err)
		}
		opts.Weights = w.Proportions()
	}
	if f.checks < 0 || (f.checks == 0 && f.gen) {
		return opts, usagef("--checks must be positive")
	}
	return opts, nil
}

// opener opens the validators of a run. TOOLPROOF_ROOT, for developing toolproof, names a
// checkout whose adapters, seed gates and zoo run instead of the copies in this binary.
func (f *runFlags) opener(stderr io.Writer) *registry.Opener {
	return &registry.Opener{Root: os.Getenv("TOOLPROOF_ROOT"), Progress: stderr, Version: version,
		Options: stdio.Options{Window: f.window, Timeout: f.timeout, Stderr: stderr, Processes: f.processes,
			Wording: f.mcp.opts.Wording},
		MCP: f.mcp.opts}
}

// openAll opens every --validator (default: reference).
func (f *runFlags) openAll(stderr io.Writer) ([]validator.Validator, func(), error) {
	specs := f.validators
	if len(specs) == 0 {
		specs = multiFlag{"reference"}
	}
	o := f.opener(stderr)
	// An error of a validator that died while starting is printed under the lines of its stderr
	// already shown, and quotes only the others.
	o.Options.StderrShown = func(string) bool { return true }
	if f.childStderr != "pass" {
		f.captured = newStderrLog(stderr, "")
		o.Options.Stderr = f.captured
		o.Options.StderrShown = toolproofLine
	}
	var vs []validator.Validator
	closeAll := func() {
		for _, v := range vs {
			if err := registry.Close(v); err != nil {
				fmt.Fprintf(stderr, "toolproof: closing %s: %v\n", v.Name(), err)
			}
		}
		if f.captured != nil {
			f.captured.Close()
		}
	}
	for _, s := range specs {
		v, err := o.Open(s)
		if err != nil {
			closeAll()
			return nil, nil, usageError{err.Error()}
		}
		vs = append(vs, v)
	}
	return vs, closeAll, nil
}

// toolsOf is the tools to check: toolsFor the validators, then --tool and --skip-tool.
func (f *runFlags) toolsOf(stop context.Context, vs []validator.Validator, stderr io.Writer) (tool.Set, error) {
	set, err := toolsFor(stop, f.tools, vs, stderr)
	if err != nil {
		return tool.Set{}, err
	}
	set.Tools, err = filterTools(set.Tools, f.mcp.only, f.mcp.skip)
	return set, err
}

// loadBaseline reads --baseline (nil when it is not given).
func (f *runFlags) loadBaseline() (*baseline.Baseline, error) {
	if f.baseline == "" {
		return nil, nil
	}
	base, err := baseline.Load(f.baseline)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return base, nil
}

// sayShard says on stderr which shard of the tools this run checks, when it is one.
func (f *runFlags) sayShard(stderr io.Writer, opts harness.Options, tools int) {
	if opts.Shards > 0 {
		fmt.Fprintf(stderr, "toolproof: shard %d/%d (%s): %d of %d tools\n", opts.Shard, opts.Shards, f.shardFrom,
			(tools-opts.Shard+opts.Shards-1)/opts.Shards, tools)
	}
}
