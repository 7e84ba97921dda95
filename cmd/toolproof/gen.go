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

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// genCmd is toolproof gen: its flags, check and run.
type genCmd struct {
	tools      multiFlag
	schemaFile string
	valid      bool
	mutated    bool
	n          int
	seed       int
	muts       string
	close      bool
	format     string
	out        string
	fuzzName   string
	mutators   []mutators.Mutator // muts, selected
}

func (c *genCmd) flags(fs *flag.FlagSet) {
	toolsFlag(fs, &c.tools, "`PATH`: a tool file or directory (repeatable)")
	fs.StringVar(&c.schemaFile, "schema", "", "a JSON Schema `FILE`: one tool named after the file")
	fs.BoolVar(&c.valid, "valid", false, "emit valid values (the default when --mutated is not given)")
	fs.BoolVar(&c.mutated, "mutated", false, "emit distortions, one per class and value")
	fs.IntVar(&c.n, "n", 10, "`N` valid values per tool")
	fs.IntVar(&c.seed, "seed", 1, "`SEED`: the same seed gives the same output")
	mutatorsFlag(fs, &c.muts, "`LIST` of distortion classes, comma-separated")
	closeFlag(fs, &c.close, "treat objects that do not say otherwise as closed")
	fs.StringVar(&c.format, "format", "jsonl",
		"`FORMAT`: jsonl, test-suite (a JSON-Schema-Test-Suite file) or go-fuzz (a Go fuzz corpus, with --out)")
	fs.StringVar(&c.out, "out", "", "go-fuzz: the package `DIR` to write testdata/fuzz/NAME/ in")
	fs.StringVar(&c.fuzzName, "fuzz-name", "FuzzDifferential",
		"go-fuzz: the fuzz target's `NAME` (a target taking one []byte, such as harness.Differential)")
}

func (c *genCmd) check(pos []string) error {
	if len(pos) > 0 {
		return usagef("gen takes no arguments (got %q)", pos)
	}
	if (len(c.tools) == 0) == (c.schemaFile == "") {
		return usagef("gen needs exactly one of --tools PATH or --schema FILE")
	}
	if c.n <= 0 {
		return usagef("--n must be positive")
	}
	switch c.format {
	case "jsonl", "test-suite":
	case "go-fuzz":
		if c.out == "" {
			return usagef("--format go-fuzz needs --out DIR (the package directory of the fuzz test)")
		}
	default:
		return usagef("--format %q: want jsonl, test-suite or go-fuzz", c.format)
	}
	ms, err := mutators.Select(c.muts)
	if err != nil {
		return usagef("--mutators: %v", err)
	}
	c.mutators = ms
	return nil
}

func (c *genCmd) run(_ []string, stdout, stderr io.Writer) error {
	ts, err := c.load(stderr)
	if err != nil {
		return err
	}
	gopts := harness.GenOptions{N: c.n, Seed: c.seed, Valid: c.valid ||
		!c.mutated, Mutated: c.mutated, Mutators: c.mutators, Close: c.close}
	if c.format == "jsonl" {
		return genJSONL(stdout, stderr, ts, gopts)
	}
	cs, skipped := harness.Generate(ts, gopts)
	for _, s := range skipped {
		fmt.Fprintf(stderr, "toolproof: skipped %s\n", report.EscapeLine(s.String()))
	}
	if len(ts) == len(skipped) {
		return usagef("no tool could be used (%d skipped)", len(skipped))
	}
	if c.format == "go-fuzz" {
		var args [][]byte
		for _, cs := range cs {
			args = append(args, cs.Args)
		}
		if err := harness.WriteFuzzCorpus(c.out, c.fuzzName, args); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "toolproof: wrote %d inputs to %s\n", len(args),
			filepath.Join(c.out, "testdata", "fuzz", c.fuzzName))
		return nil
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	return writeTestSuite(w, ts, cs, c.close, stderr)
}

// genJSONL writes one line a case as it is made: memory does not grow with the tools.
func genJSONL(stdout, stderr io.Writer, ts []tool.Tool, gopts harness.GenOptions) error {
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := report.NewJSONEncoder(w)
	skipped, err := harness.GenerateEach(ts, gopts, func(c corpus.Case) error { return enc.Encode(c) })
	if err != nil {
		return err
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "toolproof: skipped %s\n", report.EscapeLine(s.String()))
	}
	if len(ts) == len(skipped) {
		return usagef("no tool could be used (%d skipped)", len(skipped))
	}
	return nil
}

// load reads the tools: --tools, or the one tool --schema makes of a JSON Schema file.
func (c *genCmd) load(stderr io.Writer) ([]tool.Tool, error) {
	if c.schemaFile == "" {
		loaded, skipped, err := loadTools(c.tools, stderr)
		if err != nil {
			return nil, err
		}
		for _, s := range skipped {
			fmt.Fprintf(stderr, "toolproof: skipped %s\n", report.EscapeLine(s.String()))
		}
		return loaded, nil
	}
	data, err := os.ReadFile(c.schemaFile)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	v, err := jsonvalue.Parse(data)
	if err != nil {
		var se *jsonvalue.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset)
			return nil, usagef("--schema %s:%d:%d: not JSON: %s", c.schemaFile, line, col, se.Msg)
		}
		return nil, usagef("--schema %s: %v", c.schemaFile, err)
	}
	if m, ok := v.(map[string]any); ok {
		_, named := m["name"].(string)
		_, fn := m["function"].(map[string]any)
		_, p1 := m["parameters"]
		_, p2 := m["input_schema"]
		_, p3 := m["inputSchema"]
		if fn || (named && (p1 || p2 || p3)) {
			return nil, usagef("--schema %s: this is a tool definition, not a JSON Schema: give it with --tools",
				c.schemaFile)
		}
	}
	name := strings.TrimSuffix(filepath.Base(c.schemaFile), filepath.Ext(c.schemaFile))
	return []tool.Tool{{Name: name, Parameters: data, Source: c.schemaFile}}, nil
}

// writeTestSuite writes one JSON-Schema-Test-Suite file (an array of groups, one per tool), so
// any validator's own suite runner can replay the cases. A case must be judged by the schema
// alone there: text that is not JSON, implementation-defined input, values only the gate
// contract rejects (a root that is not an object, where the schema itself allows it), and values
// whose verdict changes when format is an annotation are left out, and counted on stderr.
func writeTestSuite(w io.Writer, ts []tool.Tool, cs []corpus.Case, closeObjects bool, stderr io.Writer) error {
	st := newSuite(ts, closeObjects)
	left := 0
	for _, c := range cs {
		if !st.add(c) {
			left++
		}
	}
	var groups []*suiteGroupOut
	for _, name := range st.order {
		if len(st.byTool[name].Tests) > 0 {
			groups = append(groups, st.byTool[name])
		}
	}
	data, err := marshalIndentExact(groups)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(report.EscapeJSON(data), '\n')); err != nil {
		return err
	}
	if left > 0 {
		fmt.Fprintf(stderr, "toolproof: %d cases left out of the test suite: not JSON, implementation-defined, "+
			"rejected only by the plain-object rule of the gate, or judged differently when format is an annotation\n",
			left)
	}
	return nil
}

// suiteTest and suiteGroupOut are a test and a group of a JSON-Schema-Test-Suite file.
type suiteTest struct {
	Description string `json:"description"`
	Data        any    `json:"data"`
	Valid       bool   `json:"valid"`
}

type suiteGroupOut struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []suiteTest     `json:"tests"`
}

// suite is a test suite being written: a group per tool, with the tool's oracle and its lax
// copy (format as an annotation, the suite's default).
type suite struct {
	byTool  map[string]*suiteGroupOut
	oracles map[string]*oracle.Gatekeeper
	lax     map[string]*oracle.Gatekeeper
	order   []string
}

func newSuite(ts []tool.Tool, closeObjects bool) *suite {
	st := &suite{byTool: map[string]*suiteGroupOut{}, oracles: map[string]*oracle.Gatekeeper{},
		lax: map[string]*oracle.Gatekeeper{}}
	for _, t := range ts {
		if closeObjects {
			t = tool.Close(t)
		}
		gk, err := oracle.Compile(t)
		if err != nil {
			continue
		}
		st.oracles[t.Name] = gk
		if lk, err := oracle.Compile(t, oracle.FormatsAsAnnotations()); err == nil {
			st.lax[t.Name] = lk
		}
		st.byTool[t.Name] = &suiteGroupOut{Description: "toolproof cases for tool " + t.Name, Schema: t.Parameters}
		st.order = append(st.order, t.Name)
	}
	return st
}

// add adds a case to its tool's group; false when it is left out (a case of a tool with no
// group is neither added nor left out: true).
func (st *suite) add(c corpus.Case) bool {
	g := st.byTool[c.Tool]
	if g == nil {
		return true
	}
	v, err := jsonvalue.Parse(c.Args)
	if err != nil || c.Expect == corpus.Either {
		return false
	}
	// Keep a case only if its verdict holds whether format is asserted or not: suite runners
	// treat format as an annotation unless told otherwise.
	schemaValid := st.oracles[c.Tool].Valid(v)
	if schemaValid != (c.Expect == corpus.Accept) || st.lax[c.Tool] == nil || st.lax[c.Tool].Valid(v) != schemaValid {
		return false
	}
	desc := string(c.Class)
	if c.Reason != "" {
		desc += ": " + c.Reason
	}
	g.Tests = append(g.Tests, suiteTest{Description: desc, Data: v, Valid: schemaValid})
	return true
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
