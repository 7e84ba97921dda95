package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"

	"github.com/toolproof/toolproof/harness/baseline"
	"github.com/toolproof/toolproof/harness/report"
)

// baselineCmd is toolproof baseline, which prints the baseline a JSON report needs: its known
// findings, trimmed (run --baseline reads it).
type baselineCmd struct{ file string }

func (c *baselineCmd) flags(*flag.FlagSet) {}

func (c *baselineCmd) check(pos []string) error {
	if len(pos) != 1 {
		return usagef("baseline takes one JSON report (toolproof run --format json > report.json; toolproof baseline " +
			"report.json > baseline.json)")
	}
	c.file = pos[0]
	return nil
}

func (c *baselineCmd) run(_ []string, stdout, stderr io.Writer) error {
	data, err := os.ReadFile(c.file)
	if err != nil {
		return usagef("baseline: %v", err)
	}
	var doc report.Document
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil || doc.Reports == nil {
		if err == nil {
			return usagef("baseline %s: no \"reports\": not a JSON report of toolproof run", c.file)
		}
		return usagef("baseline %s: not a JSON report of toolproof run: %s", c.file, jsonErr(data, err))
	}
	enc := report.NewJSONEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(baseline.Trim(doc))
}
