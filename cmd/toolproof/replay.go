package main

import (
	"context"
	"flag"
	"io"
	"strings"
	"time"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator/tool"
)

// replayCmd is toolproof replay: saved cases (a directory of --save, or the findings of a JSON
// report) checked again, with run's flags.
type replayCmd struct {
	runFlags
	from string // the directory or the JSON report
	opts harness.Options
}

func (c *replayCmd) flags(fs *flag.FlagSet) { c.register(fs, false) }

func (c *replayCmd) check(pos []string) error {
	if len(pos) != 1 {
		return usagef("replay takes one directory of saved cases (--save DIR) or one JSON report (--format json)")
	}
	c.from = pos[0]
	var err error
	c.opts, err = c.options()
	return err
}

func (c *replayCmd) run(args []string, stdout, stderr io.Writer) error {
	f, opts := &c.runFlags, c.opts
	start := time.Now() // for JUnit's time
	cs, err := casesToReplay(c.from, f.ids)
	if err != nil {
		return err
	}
	vs, closeAll, err := f.openAll(stderr)
	if err != nil {
		return err
	}
	defer closeAll()
	set, err := f.toolsOf(context.Background(), vs, stderr)
	if err != nil {
		return err
	}
	tools := set.Tools
	if err := someSavedTool(c.from, cs, tools); err != nil {
		return err
	}
	opts.Files = toolFiles(f.servedBy(vs), set.Texts)
	var reports []*report.Report
	for _, v := range vs {
		rep, err := harness.Replay(cs, tools, v, opts)
		if err != nil {
			return err
		}
		rep.Notes = append(rep.Notes, notesOf(v)...)
		reports = append(reports, rep)
	}
	sources(reports, tools, f.servedBy(vs))
	out := f.outputs(vs, args, 0)
	out.render.JUnit.Elapsed = time.Since(start)
	return writeReports(reports, out, f.maxSkipped, stdout, stderr)
}

// someSavedTool refuses saved cases none of which names a tool given.
func someSavedTool(dir string, cs []corpus.Case, tools []tool.Tool) error {
	known := map[string]bool{}
	for _, t := range tools {
		known[t.Name] = true
	}
	matched := 0
	for _, c := range cs {
		if known[c.Tool] {
			matched++
		}
	}
	if matched == 0 {
		var names []string
		seen := map[string]bool{}
		for _, c := range cs {
			if !seen[c.Tool] {
				seen[c.Tool] = true
				names = append(names, c.Tool)
			}
		}
		return usagef("replay %s: its %d saved cases name the tools %s, none of which is in the given tools (use "+
			"--tools with the tool files they were made from)", dir, len(cs), strings.Join(names, ", "))
	}
	return nil
}
