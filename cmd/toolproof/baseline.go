package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"

	"github.com/toolproof/toolproof/baseline"
	"github.com/toolproof/toolproof/report"
)

// cmdBaseline prints the baseline a JSON report needs: its known findings, trimmed (run
// --baseline reads it).
func cmdBaseline(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("toolproof baseline", flag.ContinueOnError)
	files, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("baseline takes one JSON report (toolproof run --format json > report.json; toolproof baseline report.json > baseline.json)")
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return usagef("baseline: %v", err)
	}
	var doc report.Document
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil || doc.Reports == nil {
		if err == nil {
			return usagef("baseline %s: no \"reports\": not a JSON report of toolproof run", files[0])
		}
		return usagef("baseline %s: not a JSON report of toolproof run: %s", files[0], jsonErr(data, err))
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(baseline.Trim(doc))
}
