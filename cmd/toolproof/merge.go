package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/toolproof/toolproof/harness/baseline"
	"github.com/toolproof/toolproof/harness/report"
)

// mergeExtras puts together what the shards carry beside their findings: where each tool is
// defined (Sources) and what the baseline made of each shard; Passed is recounted.
func mergeExtras(merged []*report.Report, docs []report.Document) {
	for i, r := range merged {
		var parts []*report.BaselineResult
		for _, d := range docs {
			if i >= len(d.Reports) {
				continue
			}
			s := d.Reports[i]
			for t, src := range s.Sources {
				if r.Sources == nil {
					r.Sources = map[string]report.Source{}
				}
				r.Sources[t] = src
			}
			parts = append(parts, s.Baseline)
		}
		if b := baseline.Union(parts); b != nil {
			// A shard's finding may come back as the first case it saw (merge puts the shrunk
			// case of the first tool back), which does not carry the mark: mark again.
			baseline.Apply(r, &baseline.Replayed{File: b.File, Known: b.Known, Fixed: b.Fixed})
		}
	}
}

// mergeReplay is the replay command of a finding of a merged run: from its JSON report.
func mergeReplay(jsonFile string) func(*report.Report, report.Finding) string {
	if jsonFile == "" {
		jsonFile = "REPORT.json"
	}
	return func(r *report.Report, f report.Finding) string {
		return fmt.Sprintf("toolproof replay %s --id %s --validator SPEC --tools TOOLS  # SPEC: the spec of %s; "+
			"TOOLS: the run's tool files",
			shellWord(jsonFile), f.ID, r.Validator)
	}
}

// mergeCmd is toolproof merge, which reads the JSON reports of the shards of one run (run
// --shard i/n --format json) and writes the report of the whole run, as the unsharded run with
// the same seed writes it.
type mergeCmd struct {
	format     string
	maxSkipped int
	files      reportFlags
	sarifFile  string
	names      []string // the shards' reports
}

func (c *mergeCmd) flags(fs *flag.FlagSet) {
	reportFormatFlag(fs, &c.format)
	fs.Var(&c.files, "report", "`FORMAT=FILE`: write one more report of the merged run to FILE (repeatable)")
	sarifFileFlag(fs, &c.sarifFile)
	maxSkippedFlag(fs, &c.maxSkipped)
}

func (c *mergeCmd) check(pos []string) error {
	if err := checkFormat(c.format); err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("merge takes the JSON reports of the shards of a run (toolproof run --shard i/n --format json " +
			"> shard-i.json)")
	}
	c.names = pos
	return nil
}

func (c *mergeCmd) run(args []string, stdout, stderr io.Writer) error {
	names := c.names
	docs := make([]report.Document, len(names))
	for i, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return usagef("merge: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&docs[i]); err != nil {
			return usagef("merge %s: not a JSON report of toolproof run: %s", name, jsonErr(data, err))
		}
		if dec.More() {
			return usagef("merge %s: more than one JSON value; want one report document", name)
		}
	}
	doc, err := report.Merge(docs, names)
	if err != nil {
		return usagef("merge: %v", err)
	}
	mergeExtras(doc.Reports, docs)
	out := outputs{format: c.format, files: c.files, render: report.RenderOptions{
		HTML:  report.HTMLOptions{Command: repeatCommand("merge", args, 0), Replay: mergeReplay(c.files.jsonPath())},
		SARIF: report.SARIFOptions{Version: moduleVersion(), File: c.sarifFile}}}
	return writeReports(doc.Reports, out, c.maxSkipped, stdout, stderr)
}

// jsonErr says where in data a JSON error is, by line and column when it knows the offset.
func jsonErr(data []byte, err error) string {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset - 1 // the offset is after the byte that is wrong
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("line %d, column %d: %v", line, col, err)
}
