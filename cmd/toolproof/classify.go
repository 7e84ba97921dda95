package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators/classify"
)

// classifyCmd is toolproof classify, which reads a log of tool calls and names each call's
// distortions: its flags, check and run.
type classifyCmd struct {
	tools     multiFlag
	calls     string
	format    string
	save      string
	saveValid bool
	weights   string
	close     bool
}

func (f *classifyCmd) flags(fs *flag.FlagSet) {
	fs.Var(&f.tools, "tools",
		"`PATH`: a tool file or directory the calls are of (repeatable; default: the embedded corpus)")
	fs.StringVar(&f.calls, "calls", "",
		"`LOG`: a JSON Lines log of tool calls ({tool, arguments}, Chat Completions tool_calls, Responses "+
			"function_call, Anthropic tool_use, MCP tools/call); - for stdin")
	fs.StringVar(&f.format, "format", "text",
		"`FORMAT`: text (classes by frequency, per tool, with examples), json (the same as data) or jsonl (one line "+
			"per call, in input order)")
	fs.StringVar(&f.save, "save", "",
		"`DIR` to write the invalid calls to as regression cases (replay them with toolproof replay DIR)")
	fs.BoolVar(&f.saveValid, "save-valid", false, "with --save, write the valid calls too, as cases a gate must accept")
	fs.StringVar(&f.weights, "weights", "",
		"`FILE` to write the class and variant frequencies to (for toolproof run --weights)")
	fs.BoolVar(&f.close, "close", false,
		"treat every object that does not say otherwise as additionalProperties:false (OpenAI strict)")
}

func (f *classifyCmd) check(pos []string) error {
	if len(pos) > 0 {
		return usagef("classify takes no arguments (got %q); the log is --calls FILE", pos[0])
	}
	switch {
	case f.calls == "":
		return usagef("classify needs --calls LOG, a JSON Lines log of tool calls")
	case f.format != "text" && f.format != "json" && f.format != "jsonl":
		return usagef("--format %q: classify writes text, json or jsonl", f.format)
	case f.saveValid && f.save == "":
		return usagef("--save-valid needs --save DIR")
	}
	return nil
}

func (f *classifyCmd) run(_ []string, stdout, stderr io.Writer) error {
	tools, skipped, err := loadClosed(f.tools, f.close, stderr)
	if err != nil {
		return err
	}
	calls, bad, err := readCallsFrom(f.calls)
	if err != nil {
		return err
	}
	cl, notCompiled := classify.New(tools)
	for _, s := range append(skipped, notCompiled...) {
		fmt.Fprintf(stderr, "toolproof: skipped %s\n", report.EscapeLine(s.String()))
	}
	for _, e := range bad {
		fmt.Fprintf(stderr, "toolproof: %s: %s (skipped)\n", f.calls, report.EscapeLine(e.Error()))
	}
	results := cl.All(calls)
	summary := classify.Summarise(results, bad)
	if err := writeClassified(stdout, f.format, results, summary); err != nil {
		return err
	}
	return f.outputs(cl, results, summary, stderr)
}

// readCallsFrom reads the log at path ("-": stdin).
func readCallsFrom(path string) ([]classify.Call, []classify.LineError, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, usagef("--calls: %v", err)
		}
		defer file.Close()
		r = file
	}
	calls, bad, err := classify.ReadCalls(r)
	if err != nil {
		return nil, nil, fmt.Errorf("--calls %s: %v", path, err)
	}
	return calls, bad, nil
}

// writeClassified writes the results in the format asked for.
func writeClassified(w io.Writer, format string, results []classify.Result, s classify.Summary) error {
	switch format {
	case "jsonl":
		enc := report.NewJSONEncoder(w)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	case "json":
		enc := report.NewJSONEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	return classify.WriteText(w, s)
}

// outputs writes the regression cases and the weights, when asked for.
func (f *classifyCmd) outputs(cl *classify.Classifier, results []classify.Result, s classify.Summary,
	stderr io.Writer) error {
	if f.save != "" {
		n, err := cl.Save(f.save, results, f.calls, f.saveValid)
		if err != nil {
			return fmt.Errorf("--save %s: %v", f.save, err)
		}
		fmt.Fprintf(stderr, "toolproof: saved %d calls as regression cases in %s (toolproof replay %s --validator "+
			"SPEC)\n", n, f.save, f.save)
	}
	if f.weights != "" {
		data, err := json.MarshalIndent(classify.WeightsOf(s, f.calls), "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(f.weights, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("--weights: %v", err)
		}
		fmt.Fprintf(stderr, "toolproof: wrote the class frequencies to %s (toolproof run --weights %s)\n",
			f.weights, f.weights)
	}
	return nil
}
