package main

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/baseline"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/stdio"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// loadTools reads the --tools paths, or the embedded corpus when there are none.
func loadTools(paths []string, stderr io.Writer) ([]tool.Tool, []tool.Skipped, error) {
	set, err := loadSet(context.Background(), paths, stderr)
	return set.Tools, set.Skipped, err
}

// loadSet is loadTools, with the bytes of the files read (tool.Set.Texts), stopped when stop is
// done: the files not read then are left out, with a note, and the run reports what it has.
func loadSet(stop context.Context, paths []string, stderr io.Writer) (tool.Set, error) {
	if len(paths) == 0 {
		return sample.Tools(), nil
	}
	var all tool.Set
	for _, p := range paths {
		if stop.Err() != nil {
			break
		}
		set, err := tool.LoadContext(stop, p)
		if err != nil {
			return tool.Set{}, usagef("--tools %s: %v", p, err)
		}
		all.Merge(set)
	}
	if stop.Err() != nil {
		fmt.Fprintf(stderr, "toolproof: %v while loading the tools: %d files not read\n",
			context.Cause(stop), all.Unread)
		return all, nil
	}
	if n := len(all.Renamed); n > 0 {
		fmt.Fprintf(stderr, "toolproof: note: %d tools share a name with another tool and were renamed NAME__2, "+
			"NAME__3, ... (first: %s)\n", n, report.EscapeLine(all.Renamed[0]))
	}
	if len(all.Tools) == 0 {
		return tool.Set{}, usagef("--tools: no usable tool in %s%s", strings.Join(paths, ", "),
			skippedText(all.Skipped))
	}
	warnPatterns(all.Warnings, stderr)
	return all, nil
}

// loadClosed is loadTools, every tool closed (tool.Close) when closeObjects is set (--close).
func loadClosed(paths []string, closeObjects bool, stderr io.Writer) ([]tool.Tool, []tool.Skipped, error) {
	ts, skipped, err := loadTools(paths, stderr)
	if closeObjects {
		for i := range ts {
			ts[i] = tool.Close(ts[i])
		}
	}
	return ts, skipped, err
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
		fmt.Fprintf(stderr, "toolproof: warning: %s\n", report.EscapeLine(w))
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
		fmt.Fprintf(&b, "\n  %s", report.EscapeLine(s.String()))
	}
	return b.String()
}

// toolsFor is loadTools, except that with no --tools a validator that serves tools of its own
// (validator.ToolSource: an MCP server, a module of native tools) supplies them: the first such
// validator given.
func toolsFor(stop context.Context, paths []string, vs []validator.Validator, stderr io.Writer) (tool.Set, error) {
	if len(paths) == 0 {
		for _, v := range vs {
			src, ok := v.(validator.ToolSource)
			if !ok {
				continue
			}
			tools, err := src.Tools()
			if err != nil {
				return tool.Set{}, fmt.Errorf("validator %s: listing its tools: %w", v.Name(), err)
			}
			if len(tools) == 0 {
				return tool.Set{}, usagef("validator %s serves no tools; give tool files with --tools", v.Name())
			}
			var set tool.Set
			for _, t := range tools {
				set.Add(t)
			}
			warnPatterns(set.Warnings, stderr)
			return set, nil
		}
	}
	return loadSet(stop, paths, stderr)
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1
}

// stoppedBy is why a validator could not finish the run (an MCP server over HTTP that refused
// toolproof or went away), or nil.
func stoppedBy(v validator.Validator) error {
	if f, ok := v.(validator.Fallible); ok {
		return f.Err()
	}
	return nil
}

// stoppedAny is err, or, when the run otherwise ended well (no error, or findings), the reason
// a validator stopped before the end: the report is complete up to there.
func stoppedAny(vs []validator.Validator, err error) error {
	for _, v := range vs {
		if serr := stoppedBy(v); serr != nil && (err == nil || errors.Is(err, errFindings)) {
			err = usageError{serr.Error() + "; the report above is complete up to there"}
		}
	}
	return err
}

// notesOf are the notes a validator has for its report (an MCP server: the forms it answered in).
func notesOf(v validator.Validator) []string {
	if n, ok := v.(validator.Noter); ok {
		return n.Notes()
	}
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// runCmd is toolproof run: its flags, check and run.
type runCmd struct {
	runFlags
	opts harness.Options
}

func (c *runCmd) flags(fs *flag.FlagSet) { c.register(fs, true) }

func (c *runCmd) check(pos []string) error {
	if len(pos) > 0 {
		return usagef("run takes no arguments (got %q); tool files go in --tools", pos)
	}
	var err error
	c.opts, err = c.options()
	return err
}

func (c *runCmd) run(args []string, stdout, stderr io.Writer) error {
	f, opts := &c.runFlags, c.opts
	start := time.Now() // for JUnit's time, the one part of a report that is wall time
	vs, closeAll, err := f.openAll(stderr)
	if err != nil {
		return err
	}
	defer closeAll()
	stop, release := stopOn(f.maxTime, closeAll, stderr)
	defer release()
	set, err := f.toolsOf(stop, vs, stderr)
	if err != nil {
		return err
	}
	tools, skipped := set.Tools, set.Skipped
	base, err := f.loadBaseline()
	if err != nil {
		return err
	}
	seed := f.seed
	if seed == 0 {
		seed = randomSeed()
	}
	opts.Checks, opts.Seed, opts.Stop = f.checks, seed, stop
	f.sayShard(stderr, opts, len(tools))
	if f.cpuprofile != "" {
		stop, err := startCPUProfile(f.cpuprofile)
		if err != nil {
			return err
		}
		defer stop()
	}
	if p := newLiveProgress(stderr); p != nil {
		opts.Progress, opts.Cases = p.tools, p.cases
		defer p.stop()
	}
	opts.Files = toolFiles(f.servedBy(vs), set.Texts)
	reports, saveErr, err := runEach(vs, tools, skipped, base, opts)
	if err != nil {
		return err
	}
	sources(reports, tools, f.servedBy(vs))
	out := f.outputs(vs, args, seed)
	out.render.JUnit.Elapsed = time.Since(start)
	err = stoppedAny(vs, writeReports(reports, out, f.maxSkipped, stdout, stderr))
	why := interrupted(reports)
	if saveErr != nil {
		// The reports are written; not every case --save keeps is. That is bad input (exit 2),
		// unless the run was cut short or another output failed too: then both are said.
		if why == "" && (err == nil || errors.Is(err, errFindings)) {
			return usageError{"--save: " + saveErr.Error() + "; the report is written"}
		}
		fmt.Fprintln(stderr, "toolproof: --save:", saveErr)
	}
	if why != "" {
		fmt.Fprintf(stderr, "toolproof: %s; the report covers what was checked\n", why)
		return errInterrupted
	}
	if len(f.validators) == 0 && f.format == "text" && (err == nil || errors.Is(err, errFindings)) {
		// The reference alone proves nothing to a newcomer: show what a finding looks like.
		if derr := writeDemo(stdout, tools, opts, invokedAs(os.Args[0])); derr != nil {
			return derr
		}
	}
	return err
}

// runEach runs the harness for each validator: the known findings of base first (whatever the
// seed, so their verdicts are the gate's alone), then the run; the tools skipped before the run
// lead each report's skipped tools. A failure to save cases (--save) keeps the reports, and is
// returned apart; a server that refuses toolproof during the run interrupts its report there.
func runEach(vs []validator.Validator, tools []tool.Tool, skipped []tool.Skipped, base *baseline.Baseline,
	opts harness.Options) (reports []*report.Report, saveErr, err error) {
	for _, v := range vs {
		var known *baseline.Replayed
		if base != nil {
			if known, err = base.Replay(tools, v, len(vs), opts); err != nil {
				return nil, nil, err
			}
		}
		rep, err := harness.Run(tools, v, opts)
		var se *harness.SaveError
		if errors.As(err, &se) {
			saveErr, err = errors.Join(saveErr, err), nil
		}
		if err != nil {
			return nil, nil, err
		}
		rep.Skipped = append(harness.Skips(skipped), rep.Skipped...)
		// A signal or --max-time ends the whole comparison; a validator that stopped serving
		// ends only its own run, and the next validator is still checked.
		runStopped := rep.Interrupted != ""
		var stopped *stdio.StoppedError
		if err := stoppedBy(v); mcp.IsAuthError(err) {
			stoppedMidRun(rep, err, "checked before it, the calls after it were not sent")
		} else if errors.As(err, &stopped) {
			stoppedMidRun(rep, err, "were sent, the verdicts on them from then on do not count")
		}
		rep.Notes = append(rep.Notes, notesOf(v)...)
		if known != nil {
			baseline.Apply(rep, known)
		}
		reports = append(reports, rep)
		if runStopped {
			break
		}
	}
	return reports, saveErr, nil
}

// stoppedMidRun marks rep interrupted by a validator that stopped serving after the run began:
// a server that refused toolproof (401 or 403; the error never holds a header value), or an
// external validator that could no longer give verdicts that count (stdio.StoppedError). The
// report keeps the cases judged before it; after says what became of the rest.
func stoppedMidRun(rep *report.Report, err error, after string) {
	why := fmt.Sprintf("%v; %d cases %s", err, rep.Cases, after)
	if rep.Interrupted != "" {
		why = rep.Interrupted + "; " + why
	}
	rep.Interrupted = why
	rep.Recount()
}

// writeReports writes the report (one validator) or the comparison (several), then says how the
// run ended: more skipped tools than maxSkipped (when it is not negative), or every tool
// skipped, is bad input, exit 2, whatever the findings; else a finding is exit 1.
func writeReports(reports []*report.Report, out outputs, maxSkipped int, stdout, stderr io.Writer) error {
	passed := true
	for _, r := range reports {
		passed = passed && r.Passed
	}
	// Every output is written before any is given up on: a --report file that cannot be
	// written loses neither the others nor stdout.
	fileErr := writeFiles(reports, out)
	if err := writeStdout(stdout, reports, out); err != nil {
		return errors.Join(fileErr, err)
	}
	if format := out.format; format == "text" && len(reports) == 1 && reports[0].Seed != 0 {
		fmt.Fprintf(stdout, "\nseed %d (toolproof run --seed %d repeats these cases)\n",
			reports[0].Seed, reports[0].Seed)
	}
	if out.format == "text" {
		writeOpenHint(stdout, reports, invokedAs(os.Args[0]))
	}
	if path, n := out.captured.Captured(); out.format == "text" && n > 0 {
		fmt.Fprintf(stdout, "the validator's stderr, %d lines so far: %s (--validator-stderr=pass shows it)\n", n, path)
	}
	if fileErr != nil {
		return fileErr
	}
	if maxSkipped >= 0 {
		for _, r := range reports {
			if len(r.Skipped) > maxSkipped {
				return usagef("%s: %d tools skipped, more than --max-skipped %d allows (the report lists them with "+
					"their reasons)", r.Validator, len(r.Skipped), maxSkipped)
			}
		}
	}
	for _, r := range reports {
		// A run that checked nothing proves nothing: every tool was skipped (the oracle or the
		// gate could not use it). A shard may be empty; merge judges the whole run.
		if r.Tools == 0 && len(r.Skipped) > 0 && r.Shard == nil {
			return usagef("%s: no tool could be checked; all %d were skipped (the report lists them with their "+
				"reasons)", r.Validator, len(r.Skipped))
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
