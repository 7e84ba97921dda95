package main

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/toolproof/toolproof/baseline"
	"github.com/toolproof/toolproof/classify"
	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/report"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/stdio"
)

// loadTools reads the --tools paths, or the embedded corpus when there are none.
func loadTools(paths []string, stderr io.Writer) ([]tool.Tool, []tool.Skipped, error) {
	if len(paths) == 0 {
		set := corpus.Tools()
		return set.Tools, set.Skipped, nil
	}
	var all tool.Set
	for _, p := range paths {
		set, err := tool.Load(p)
		if err != nil {
			return nil, nil, usagef("--tools %s: %v", p, err)
		}
		all.Merge(set)
	}
	if n := len(all.Renamed); n > 0 {
		fmt.Fprintf(stderr, "toolproof: note: %d tools share a name with another tool and were renamed NAME__2, NAME__3, ... (first: %s)\n", n, all.Renamed[0])
	}
	if len(all.Tools) == 0 {
		return nil, nil, usagef("--tools: no usable tool in %s%s", strings.Join(paths, ", "), skippedText(all.Skipped))
	}
	warnPatterns(all.Warnings, stderr)
	return all.Tools, all.Skipped, nil
}

// maxWarnings is how many pattern warnings the commands print before a count of the rest.
const maxWarnings = 10

// warnPatterns prints the tools' patterns not every regex dialect reads alike.
func warnPatterns(ws []string, stderr io.Writer) {
	for i, w := range ws {
		if i == maxWarnings {
			fmt.Fprintf(stderr, "toolproof: warning: %d more patterns not every regex dialect reads alike\n", len(ws)-i)
			break
		}
		fmt.Fprintf(stderr, "toolproof: warning: %s\n", w)
	}
}

// skippedText lists skipped definitions with their reasons, for a message.
func skippedText(skipped []tool.Skipped) string {
	if len(skipped) == 0 {
		return ""
	}
	const most = 20
	var b strings.Builder
	fmt.Fprintf(&b, "; %d skipped:", len(skipped))
	for i, s := range skipped {
		if i == most {
			fmt.Fprintf(&b, "\n  ... and %d more", len(skipped)-most)
			break
		}
		fmt.Fprintf(&b, "\n  %s", strings.ReplaceAll(s.String(), "\n", "\n    "))
	}
	return b.String()
}

// toolsFor is loadTools, except that with no --tools a validator that serves tools of its own
// (validator.ToolSource: an MCP server, a module of native tools) supplies them: the first such
// validator given.
func toolsFor(paths []string, vs []validator.Validator, stderr io.Writer) ([]tool.Tool, []tool.Skipped, error) {
	if len(paths) == 0 {
		for _, v := range vs {
			src, ok := v.(validator.ToolSource)
			if !ok {
				continue
			}
			tools, err := src.Tools()
			if err != nil {
				return nil, nil, fmt.Errorf("validator %s: listing its tools: %w", v.Name(), err)
			}
			if len(tools) == 0 {
				return nil, nil, usagef("validator %s serves no tools; give tool files with --tools", v.Name())
			}
			var set tool.Set
			for _, t := range tools {
				set.Add(t)
			}
			warnPatterns(set.Warnings, stderr)
			return set.Tools, set.Skipped, nil
		}
	}
	return loadTools(paths, stderr)
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1
}

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
	fs.StringVar(&m.rejectPattern, "reject-pattern", "", "mcp: an isError text or JSON-RPC error matching this regexp is a rejection (the server's own wording)")
	fs.StringVar(&m.ranPattern, "ran-pattern", "", "mcp: an isError text matching this regexp means the tool ran, then failed")
	fs.BoolVar(&m.onlyReject, "only-reject", false, "send only the must-reject cases (a correct gate runs none of them; for servers whose tools have effects)")
	fs.Var(&m.only, "tool", "test only this tool (repeatable; any validator, any tool file; a name no tool has is an error)")
	fs.Var(&m.skip, "skip-tool", "leave this tool out (repeatable; any validator, any tool file; a name no tool has is an error)")
	fs.Var(&m.headers, "header", "mcp:URL: 'NAME: VALUE' sent on every HTTP request (repeatable); $VAR in VALUE reads the environment; values are never shown")
	fs.BoolVar(&m.sep1303, "require-sep1303", false, "mcp: a JSON-RPC -32602 rejection on protocol 2025-11-25 or later is a finding (SEP-1303: input validation errors are isError tool results); by default a note")
}

func (m *mcpFlags) compile() error {
	for _, p := range []struct {
		flag, text string
		dst        **regexp.Regexp
	}{{"--reject-pattern", m.rejectPattern, &m.opts.RejectPattern}, {"--ran-pattern", m.ranPattern, &m.opts.RanPattern}} {
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

// stoppedBy is why a validator could not finish the run (an MCP server over HTTP that refused
// toolproof or went away), or nil.
func stoppedBy(v validator.Validator) error {
	if e, ok := v.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// notesOf are the notes a validator has for its report (an MCP server: the forms it answered in).
func notesOf(v validator.Validator) []string {
	if n, ok := v.(interface{ Notes() []string }); ok {
		return n.Notes()
	}
	return nil
}

func (f *runFlags) register(fs *flag.FlagSet, gen bool) {
	toolsFlag(fs, &f.tools, "tool file or directory (repeatable; default: the embedded corpus)")
	fs.Var(&f.validators, "validator", "validator to test: a name from `toolproof validators`, builtin:NAME, exec:COMMAND, node:PATH, mcp:COMMAND or mcp:http(s)://URL (repeatable: a comparison)")
	fs.StringVar(&f.profile, "profile", "strict", "strict: every distortion must be rejected; repair: accepting is allowed when the value passed on equals the original")
	closeFlag(fs, &f.close, "treat every object that does not say otherwise as additionalProperties:false (OpenAI strict)")
	reportFormatFlag(fs, &f.format)
	fs.Var(&f.reports, "report", "FORMAT=FILE: write one more report of the run to FILE (repeatable: --report html=toolproof.html --report sarif=toolproof.sarif)")
	sarifFileFlag(fs, &f.sarifFile)
	fs.BoolVar(&f.requireLoc, "require-location", false, "fail when no issue of a rejection is at the distorted place, inside it, or above it only as far as the schema lets a gate know (the object that lacks or holds the key, the anyOf/oneOf/not or if that chose); one issue at the root locates only the root")
	fs.BoolVar(&f.blockDefaults, "block-declared-defaults", false, "fail on declared_default: a valid call passed on with a default filled in that the schema shown to the model declares (reported, not failed, otherwise)")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second, "time one verdict may take before the case is a timeout")
	fs.IntVar(&f.window, "window", stdio.DefaultWindow, "requests in flight to each process of an external validator")
	fs.IntVar(&f.processes, "processes", 1, "processes of an external validator run side by side")
	f.mcp.register(fs)
	maxSkippedFlag(fs, &f.maxSkipped)
	f.gen = gen
	if gen {
		fs.IntVar(&f.checks, "checks", 100, "valid values drawn per tool (each with one distortion per class)")
		fs.Uint64Var(&f.seed, "seed", 0, "seed for the cases (0: a random seed, printed in the report)")
		mutatorsFlag(fs, &f.muts, "comma-separated distortion classes")
		fs.IntVar(&f.jobs, "jobs", 0, "tools checked in parallel (default: the number of CPUs)")
		fs.StringVar(&f.shard, "shard", "", "i/n: check only the tools whose index modulo n is i (default: from TOOLPROOF_SHARD, JOB_COMPLETION_INDEX, CIRCLE_NODE_INDEX, BUILDKITE_PARALLEL_JOB or CI_NODE_INDEX)")
		fs.IntVar(&f.shards, "shards", 0, "the number of shards, when the index comes from a variable (JOB_COMPLETION_INDEX has no count of its own)")
		fs.StringVar(&f.save, "save", "", "directory to save the minimal failing cases in (replay them with toolproof replay)")
		fs.DurationVar(&f.maxTime, "max-time", 0, "stop the run after this long and write the report of what was checked, as SIGINT does (exit status 3; 0: no limit)")
		fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to this file (for `go tool pprof`)")
		fs.StringVar(&f.weights, "weights", "", "draw the classes in the proportions of this file (toolproof classify --weights), each class at least a quarter of an even share")
		fs.StringVar(&f.baseline, "baseline", "", "JSON report listing the known findings: replayed first; those that still reproduce do not fail the run, those that no longer do (fixed) fail it")
	} else {
		fs.Var(&f.ids, "id", "replay only the finding with this id (repeatable; replaying a JSON report)")
	}
}

func (f *runFlags) options() (harness.Options, error) {
	opts := harness.Options{Close: f.close, RequireLocation: f.requireLoc, Timeout: f.timeout, Jobs: f.jobs,
		CorpusDir: f.save, OnlyReject: f.mcp.onlyReject, DeclaredDefaultsBlock: f.blockDefaults}
	if err := f.mcp.compile(); err != nil {
		return opts, err
	}
	switch f.profile {
	case "strict":
		opts.Profile = report.Strict
	case "repair":
		opts.Profile = report.Repair
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
		Options: stdio.Options{Window: f.window, Timeout: f.timeout, Stderr: stderr, Processes: f.processes},
		MCP:     f.mcp.opts}
}

// openAll opens every --validator (default: reference).
func (f *runFlags) openAll(stderr io.Writer) ([]validator.Validator, func(), error) {
	specs := f.validators
	if len(specs) == 0 {
		specs = multiFlag{"reference"}
	}
	o := f.opener(stderr)
	var vs []validator.Validator
	closeAll := func() {
		for _, v := range vs {
			if err := registry.Close(v); err != nil {
				fmt.Fprintf(stderr, "toolproof: closing %s: %v\n", v.Name(), err)
			}
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

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("toolproof run", flag.ContinueOnError)
	var f runFlags
	f.register(fs, true)
	pos, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("run takes no arguments (got %q); tool files go in --tools", pos)
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	vs, closeAll, err := f.openAll(stderr)
	if err != nil {
		return err
	}
	defer closeAll()
	stop, release := stopOn(f.maxTime, closeAll, stderr)
	defer release()
	tools, skipped, err := toolsFor(f.tools, vs, stderr)
	if err != nil {
		return err
	}
	var base *baseline.Baseline
	if f.baseline != "" {
		if base, err = baseline.Load(f.baseline); err != nil {
			return usageError{err.Error()}
		}
	}
	if tools, err = filterTools(tools, f.mcp.only, f.mcp.skip); err != nil {
		return err
	}
	seed := f.seed
	if seed == 0 {
		seed = randomSeed()
	}
	opts.Checks, opts.Seed, opts.Stop = f.checks, seed, stop
	if opts.Shards > 0 {
		fmt.Fprintf(stderr, "toolproof: shard %d/%d (%s): %d of %d tools\n", opts.Shard, opts.Shards, f.shardFrom,
			(len(tools)-opts.Shard+opts.Shards-1)/opts.Shards, len(tools))
	}
	if f.cpuprofile != "" {
		stop, err := startCPUProfile(f.cpuprofile)
		if err != nil {
			return err
		}
		defer stop()
	}
	opts.Progress = progressTo(stderr)
	var reports []*report.Report
	for _, v := range vs {
		var known *baseline.Replayed
		if base != nil {
			// Before the run, whatever the seed: the known findings' verdicts are the gate's alone.
			if known, err = base.Replay(tools, v, len(vs), opts); err != nil {
				return err
			}
		}
		rep, err := harness.Run(tools, v, opts)
		if err != nil {
			return err
		}
		rep.Skipped = append(append(make([]tool.Skipped, 0, len(skipped)+len(rep.Skipped)), skipped...), rep.Skipped...)
		if err := stoppedBy(v); mcp.IsAuthError(err) {
			return usageError{err.Error()}
		}
		rep.Notes = append(rep.Notes, notesOf(v)...)
		if known != nil {
			baseline.Apply(rep, known)
		}
		reports = append(reports, rep)
		if rep.Interrupted != "" {
			break
		}
	}
	sources(reports, tools, f.servedBy(vs))
	err = writeReports(reports, f.outputs(vs, args, seed), f.maxSkipped, stdout, stderr)
	for _, v := range vs {
		if serr := stoppedBy(v); serr != nil && (err == nil || errors.Is(err, errFindings)) {
			err = usageError{serr.Error() + "; the report above is complete up to there"}
		}
	}
	if why := interrupted(reports); why != "" {
		fmt.Fprintf(stderr, "toolproof: %s; the report covers what was checked\n", why)
		return errInterrupted
	}
	if len(f.validators) == 0 && f.format == "text" && (err == nil || errors.Is(err, errFindings)) {
		// The reference alone proves nothing to a newcomer: show what a finding looks like.
		if derr := writeDemo(stdout, tools, opts); derr != nil {
			return derr
		}
	}
	return err
}

// writeReports writes the report (one validator) or the comparison (several), then says how the
// run ended: more skipped tools than maxSkipped (when it is not negative), or every tool
// skipped, is bad input, exit 2, whatever the findings; else a finding is exit 1.
func writeReports(reports []*report.Report, out outputs, maxSkipped int, stdout, stderr io.Writer) error {
	passed := true
	for _, r := range reports {
		passed = passed && r.Passed
	}
	if err := writeFiles(reports, out); err != nil {
		return err
	}
	if err := write(stdout, reports, out.format, out.render); err != nil {
		return err
	}
	if format := out.format; format == "text" && len(reports) == 1 && reports[0].Seed != 0 {
		fmt.Fprintf(stdout, "\nseed %d (toolproof run --seed %d repeats these cases)\n", reports[0].Seed, reports[0].Seed)
	}
	if maxSkipped >= 0 {
		for _, r := range reports {
			if len(r.Skipped) > maxSkipped {
				return usagef("%s: %d tools skipped, more than --max-skipped %d allows (the report lists them with their reasons)", r.Validator, len(r.Skipped), maxSkipped)
			}
		}
	}
	for _, r := range reports {
		// A run that checked nothing proves nothing: every tool was skipped (the oracle or the
		// gate could not use it). A shard may be empty; merge judges the whole run.
		if r.Tools == 0 && len(r.Skipped) > 0 && r.Shard == nil {
			return usagef("%s: no tool could be checked; all %d were skipped (the report lists them with their reasons)", r.Validator, len(r.Skipped))
		}
	}
	if !passed {
		return errFindings
	}
	return nil
}

// startCPUProfile writes a CPU profile to path until stop.
func startCPUProfile(path string) (stop func(), err error) {
	pf, err := os.Create(path)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	if err := pprof.StartCPUProfile(pf); err != nil {
		pf.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); pf.Close() }, nil
}

// progressTo shows the tools done on a terminal; nil (no progress) elsewhere.
func progressTo(stderr io.Writer) func(done, total int) {
	if !isTerminal(stderr) {
		return nil
	}
	return func(done, total int) {
		fmt.Fprintf(stderr, "\rtoolproof: %d/%d tools", done, total)
		if done == total {
			fmt.Fprint(stderr, "\r\033[K")
		}
	}
}
