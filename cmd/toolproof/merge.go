package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/toolproof/toolproof/report"
)

// cmdMerge reads the JSON reports of the shards of one run (run --shard i/n --format json) and
// writes the report of the whole run, as the unsharded run with the same seed writes it.
func cmdMerge(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("toolproof merge", flag.ContinueOnError)
	var format string
	var maxSkipped int
	reportFormatFlag(fs, &format)
	maxSkippedFlag(fs, &maxSkipped)
	files, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	if _, err := report.FormatNamed(format); err != nil {
		return usagef("--format %q: want %s", format, report.FormatList())
	}
	if len(files) == 0 {
		return usagef("merge takes the JSON reports of the shards of a run (toolproof run --shard i/n --format json > shard-i.json)")
	}
	docs := make([]report.Document, len(files))
	for i, name := range files {
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
	doc, err := report.Merge(docs, files)
	if err != nil {
		return usagef("merge: %v", err)
	}
	return writeReports(doc.Reports, format, maxSkipped, stdout, stderr)
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
