package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

func cmdGen(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("toolproof gen", flag.ContinueOnError)
	var tools multiFlag
	fs.Var(&tools, "tools", "tool file or directory (repeatable)")
	schemaFile := fs.String("schema", "", "a JSON Schema file: one tool named after the file")
	valid := fs.Bool("valid", false, "emit valid values (the default when --mutated is not given)")
	mutated := fs.Bool("mutated", false, "emit distortions, one per class and value")
	n := fs.Int("n", 10, "valid values per tool")
	seed := fs.Int("seed", 1, "seed: the same seed gives the same output")
	muts := fs.String("mutators", "all", "comma-separated distortion classes")
	closeObjects := fs.Bool("close", false, "treat objects that do not say otherwise as closed")
	format := fs.String("format", "jsonl", "jsonl, test-suite (a JSON-Schema-Test-Suite file) or go-fuzz (a Go fuzz corpus, with --out)")
	out := fs.String("out", "", "go-fuzz: the package directory to write testdata/fuzz/NAME/ in")
	fuzzName := fs.String("fuzz-name", "FuzzDifferential", "go-fuzz: the fuzz target's name (a target taking one []byte, such as harness.Differential)")
	pos, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("gen takes no arguments (got %q)", pos)
	}
	if (len(tools) == 0) == (*schemaFile == "") {
		return usagef("gen needs exactly one of --tools PATH or --schema FILE")
	}
	if *n <= 0 {
		return usagef("--n must be positive")
	}
	switch *format {
	case "jsonl", "test-suite":
	case "go-fuzz":
		if *out == "" {
			return usagef("--format go-fuzz needs --out DIR (the package directory of the fuzz test)")
		}
	default:
		return usagef("--format %q: want jsonl, test-suite or go-fuzz", *format)
	}
	ms, err := mutators.Select(*muts)
	if err != nil {
		return usagef("--mutators: %v", err)
	}
	var ts []tool.Tool
	if *schemaFile != "" {
		data, err := os.ReadFile(*schemaFile)
		if err != nil {
			return usageError{err.Error()}
		}
		v, err := jsonvalue.Parse(data)
		if err != nil {
			var se *jsonvalue.SyntaxError
			if errors.As(err, &se) {
				line, col := lineCol(data, se.Offset)
				return usagef("--schema %s:%d:%d: not JSON: %s", *schemaFile, line, col, se.Msg)
			}
			return usagef("--schema %s: %v", *schemaFile, err)
		}
		if m, ok := v.(map[string]any); ok {
			_, named := m["name"].(string)
			_, fn := m["function"].(map[string]any)
			_, p1 := m["parameters"]
			_, p2 := m["input_schema"]
			_, p3 := m["inputSchema"]
			if fn || (named && (p1 || p2 || p3)) {
				return usagef("--schema %s: this is a tool definition, not a JSON Schema: give it with --tools", *schemaFile)
			}
		}
		name := strings.TrimSuffix(filepath.Base(*schemaFile), filepath.Ext(*schemaFile))
		ts = []tool.Tool{{Name: name, Parameters: data, Source: *schemaFile}}
	} else {
		loaded, skipped, err := loadTools(tools, stderr)
		if err != nil {
			return err
		}
		for _, s := range skipped {
			fmt.Fprintf(stderr, "toolproof: skipped %s\n", s)
		}
		ts = loaded
	}
	wantValid := *valid || !*mutated
	gopts := harness.GenOptions{N: *n, Seed: *seed, Valid: wantValid, Mutated: *mutated, Mutators: ms, Close: *closeObjects}
	if *format == "jsonl" {
		// One line a case as it is made: memory does not grow with the tools.
		w := bufio.NewWriter(stdout)
		defer w.Flush()
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		skipped, err := harness.GenerateEach(ts, gopts, func(c cases.Case) error { return enc.Encode(c) })
		if err != nil {
			return err
		}
		for _, s := range skipped {
			fmt.Fprintf(stderr, "toolproof: skipped %s\n", s)
		}
		if len(ts) == len(skipped) {
			return usagef("no tool could be used (%d skipped)", len(skipped))
		}
		return nil
	}
	cs, skipped := harness.Generate(ts, gopts)
	for _, s := range skipped {
		fmt.Fprintf(stderr, "toolproof: skipped %s\n", s)
	}
	if len(ts) == len(skipped) {
		return usagef("no tool could be used (%d skipped)", len(skipped))
	}
	if *format == "go-fuzz" {
		var args [][]byte
		for _, c := range cs {
			args = append(args, c.Args)
		}
		if err := harness.WriteFuzzCorpus(*out, *fuzzName, args); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "toolproof: wrote %d inputs to %s\n", len(args), filepath.Join(*out, "testdata", "fuzz", *fuzzName))
		return nil
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	if *format == "test-suite" {
		return writeTestSuite(w, ts, cs, *closeObjects, stderr)
	}
	return usagef("--format %q: want jsonl, test-suite or go-fuzz", *format)
}

// writeTestSuite writes one JSON-Schema-Test-Suite file (an array of groups, one per tool), so
// any validator's own suite runner can replay the cases. A case must be judged by the schema
// alone there: text that is not JSON, implementation-defined input, values only the gate
// contract rejects (a root that is not an object, where the schema itself allows it), and values
// whose verdict changes when format is an annotation are left out, and counted on stderr.
func writeTestSuite(w io.Writer, ts []tool.Tool, cs []cases.Case, closeObjects bool, stderr io.Writer) error {
	type test struct {
		Description string `json:"description"`
		Data        any    `json:"data"`
		Valid       bool   `json:"valid"`
	}
	type group struct {
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
		Tests       []test          `json:"tests"`
	}
	byTool := map[string]*group{}
	oracles := map[string]*validator.Gatekeeper{}
	lax := map[string]*validator.Gatekeeper{} // format as an annotation, the suite's default
	var order []string
	for _, t := range ts {
		if closeObjects {
			t = tool.Close(t)
		}
		gk, err := validator.Compile(t)
		if err != nil {
			continue
		}
		oracles[t.Name] = gk
		if lk, err := validator.Compile(t, validator.FormatsAsAnnotations()); err == nil {
			lax[t.Name] = lk
		}
		byTool[t.Name] = &group{Description: "toolproof cases for tool " + t.Name, Schema: t.Parameters}
		order = append(order, t.Name)
	}
	left := 0
	for _, c := range cs {
		g := byTool[c.Tool]
		if g == nil {
			continue
		}
		v, err := jsonvalue.Parse(c.Args)
		if err != nil || c.Expect == cases.Either {
			left++
			continue
		}
		// Keep a case only if its verdict holds whether format is asserted or not: suite runners
		// treat format as an annotation unless told otherwise.
		schemaValid := oracles[c.Tool].Valid(v)
		if schemaValid != (c.Expect == cases.Accept) || lax[c.Tool] == nil || lax[c.Tool].Valid(v) != schemaValid {
			left++
			continue
		}
		desc := string(c.Class)
		if c.Reason != "" {
			desc += ": " + c.Reason
		}
		g.Tests = append(g.Tests, test{Description: desc, Data: v, Valid: schemaValid})
	}
	var groups []*group
	for _, name := range order {
		if len(byTool[name].Tests) > 0 {
			groups = append(groups, byTool[name])
		}
	}
	data, err := marshalIndentExact(groups)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(data, '\n')); err != nil {
		return err
	}
	if left > 0 {
		fmt.Fprintf(stderr, "toolproof: %d cases left out of the test suite: not JSON, implementation-defined, rejected only by the plain-object rule of the gate, or judged differently when format is an annotation\n", left)
	}
	return nil
}

// marshalIndentExact indents JSON that may hold json.Number values without changing them.
func marshalIndentExact(v any) ([]byte, error) {
	return json.MarshalIndent(v, "", "  ")
}

// lineCol is the line and column (1-based, in bytes) of offset in data.
func lineCol(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	return bytes.Count(before, []byte("\n")) + 1, offset - (bytes.LastIndexByte(before, '\n') + 1) + 1
}
