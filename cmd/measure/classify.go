package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/classify"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// bfclTool is one definition of a BFCL tools file, with the questions it came from.
type bfclTool struct {
	tool.Tool
	Sources []string // ids of the BFCL entries ("live_multiple_0-0-0"); BFCL lists at most five
	Count   int      // entries it came from
}

// labelled is one call of a labelled log ({id, tool, arguments, valid}).
type labelled struct {
	classify.Call
	ID    string
	Valid bool
}

// classifyMeasure classifies a labelled log of calls (BFCL's answer key) against the definitions
// of their tools and checks every verdict: against python-jsonschema on the same definition, and
// against the label on the definition the call was labelled with.
//
//	measure classify -calls bfcl-valid-args.jsonl [-python python3] [-json OUT] bfcl-converted.jsonl
func classifyMeasure(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("classify", flag.ContinueOnError)
	callsPath := fs.String("calls", "", "labelled calls, JSON Lines {id, tool, arguments, valid}")
	python := fs.String("python", "python3", "the Python with jsonschema that gives the independent verdicts")
	out := fs.String("json", "",
		"write the summary of the calls, each against its own definition, as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *callsPath == "" {
		return fmt.Errorf("usage: measure classify -calls LOG TOOLS.jsonl")
	}
	defs, err := readBFCLTools(fs.Arg(0))
	if err != nil {
		return err
	}
	calls, err := readLabelled(*callsPath)
	if err != nil {
		return err
	}
	m := newMatcher(defs)
	pairs := m.pairs(calls)
	verdicts, err := pythonVerdicts(*python, defs, calls, pairs)
	if err != nil {
		return err
	}
	return writeClassifyReport(stdout, defs, calls, pairs, verdicts, *out)
}

// pair is one call classified against one definition of its tool.
type pair struct {
	call, def  int
	identified bool // the definition names the call among its sources (or its group's)
	got        mutators.Recognition
}

// readBFCLTools reads a BFCL tools file line by line: every definition counts, also two with
// the same name.
func readBFCLTools(path string) ([]bfclTool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []bfclTool
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		set, err := tool.Parse([]byte(line), fmt.Sprintf("%s:%d", path, i+1))
		if err != nil {
			return nil, err
		}
		var prov struct {
			Sources []string `json:"_sources"`
			Count   int      `json:"_count"`
		}
		json.Unmarshal([]byte(line), &prov)
		for _, t := range set.Tools {
			var ids []string
			for _, s := range prov.Sources {
				if _, id, ok := strings.Cut(s, "#"); ok {
					ids = append(ids, id)
				}
			}
			out = append(out, bfclTool{Tool: t, Sources: ids, Count: prov.Count})
		}
	}
	return out, nil
}

// readLabelled reads the labelled calls: each line's arguments as written, its id and label.
func readLabelled(path string) ([]labelled, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		calls, bad, err := classify.ReadCalls(bytes.NewReader(sc.Bytes()))
		if err != nil || len(bad) > 0 || len(calls) != 1 {
			return nil, fmt.Errorf("%s:%d: not a labelled call: %v %v", path, n, err, bad)
		}
		var lab struct {
			ID    string `json:"id"`
			Valid *bool  `json:"valid"`
		}
		if err := json.Unmarshal(sc.Bytes(), &lab); err != nil || lab.Valid == nil {
			return nil, fmt.Errorf("%s:%d: no valid label", path, n)
		}
		c := calls[0]
		c.Line = n
		out = append(out, labelled{Call: c, ID: lab.ID, Valid: *lab.Valid})
	}
	return out, sc.Err()
}

// matcher finds the definitions a call may have been made against.
type matcher struct {
	defs    []bfclTool
	byName  map[string][]int
	bySrc   map[string][]int
	byGroup map[string][]int
}

// group is the BFCL function set of an id ("live_multiple_5-3-0" -> "live_multiple/3"), "" for
// ids without one.
var groupRE = regexp.MustCompile(`^(.*)_\d+-(\d+)-\d+$`)

func group(id string) string {
	if m := groupRE.FindStringSubmatch(id); m != nil {
		return m[1] + "/" + m[2]
	}
	return ""
}

func newMatcher(defs []bfclTool) *matcher {
	m := &matcher{defs: defs, byName: map[string][]int{}, bySrc: map[string][]int{}, byGroup: map[string][]int{}}
	for i, d := range defs {
		m.byName[d.Name] = append(m.byName[d.Name], i)
		for _, s := range d.Sources {
			m.bySrc[s] = append(m.bySrc[s], i)
			if g := group(s); g != "" {
				m.byGroup[g] = append(m.byGroup[g], i)
			}
		}
	}
	return m
}

// candidates are the definitions of c's tool it may have been labelled against, and whether
// they are identified: named by the call's id (or its function set's) among their sources, or
// the one definition whose source list BFCL cut. Otherwise every definition of the name.
func (m *matcher) candidates(c labelled) ([]int, bool) {
	named := func(is []int) []int {
		var out []int
		for _, i := range is {
			if m.defs[i].Name == c.Tool && !containsInt(out, i) {
				out = append(out, i)
			}
		}
		return out
	}
	if is := named(m.bySrc[c.ID]); len(is) == 1 {
		return is, true
	}
	if g := group(c.ID); g != "" {
		if is := named(m.byGroup[g]); len(is) == 1 {
			return is, true
		}
	}
	var cut []int
	for _, i := range m.byName[c.Tool] {
		if m.defs[i].Count > len(m.defs[i].Sources) {
			cut = append(cut, i)
		}
	}
	if len(cut) == 1 {
		return cut, true
	}
	return m.byName[c.Tool], false
}

func containsInt(s []int, x int) bool {
	for _, e := range s {
		if e == x {
			return true
		}
	}
	return false
}

// pairs classifies each call against each of its candidate definitions, in parallel.
func (m *matcher) pairs(calls []labelled) []pair {
	var ps []pair
	for ci, c := range calls {
		is, identified := m.candidates(c)
		for _, i := range is {
			ps = append(ps, pair{call: ci, def: i, identified: identified})
		}
	}
	ctxs := make([]*mutators.Context, len(m.defs))
	var all []tool.Tool
	for _, d := range m.defs {
		all = append(all, d.Tool)
	}
	sib := mutators.SiblingsOf(all)
	for i := range m.defs {
		if gk, err := oracle.Compile(m.defs[i].Tool); err == nil {
			ctxs[i] = mutators.NewContext(gk, sib)
		}
	}
	work := make(chan int)
	done := make(chan struct{})
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		go func() {
			for k := range work {
				p := &ps[k]
				if ctxs[p.def] == nil {
					p.got = mutators.Recognition{Reading: mutators.UnknownTool}
					continue
				}
				p.got = ctxs[p.def].Recognise(calls[p.call].Args)
			}
			done <- struct{}{}
		}()
	}
	for k := range ps {
		work <- k
	}
	close(work)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		<-done
	}
	return ps
}

// pythonVerdicts asks python-jsonschema for the verdict on every pair (nil: the text is not
// JSON).
func pythonVerdicts(python string, defs []bfclTool, calls []labelled, ps []pair) ([]*bool, error) {
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for k, p := range ps {
		if err := enc.Encode(map[string]any{"key": k, "schema": json.RawMessage(defs[p.def].Parameters),
			"args": string(calls[p.call].Args)}); err != nil {
			return nil, err
		}
	}
	_, self, _, _ := runtime.Caller(0)
	cmd := exec.Command(python, filepath.Join(filepath.Dir(self), "classify_check.py"))
	cmd.Stdin, cmd.Stderr = &in, os.Stderr
	outText, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s classify_check.py (needs the jsonschema package): %v", python, err)
	}
	out := make([]*bool, len(ps))
	seen := 0
	for _, line := range bytes.Split(bytes.TrimSpace(outText), []byte("\n")) {
		var r struct {
			Key   int   `json:"key"`
			Valid *bool `json:"valid"`
		}
		if err := json.Unmarshal(line, &r); err != nil || r.Key < 0 || r.Key >= len(ps) {
			return nil, fmt.Errorf("classify_check.py answered %q", line)
		}
		out[r.Key] = r.Valid
		seen++
	}
	if seen != len(ps) {
		return nil, fmt.Errorf("classify_check.py answered %d of %d pairs", seen, len(ps))
	}
	return out, nil
}

// agrees reports whether a classification gives the verdict valid says (nil: not JSON).
func agrees(c mutators.Recognition, valid *bool) bool {
	switch c.Reading {
	case mutators.Valid:
		return valid != nil && *valid
	case mutators.Invalid, mutators.Unexplained:
		return valid == nil || !*valid
	}
	return false
}

// checked is what the checks of a labelled log found.
type checked struct {
	agree, either             int // pairs python-jsonschema agrees with; pairs classified either
	identified, labelRight    int // calls whose definition BFCL names; of them, right by the label
	ambiguous, ambiguousRight int // calls whose definition it does not; right against one of them
	labels                    map[bool]int
	disagreements             []string
	results                   []classify.Result // each call against its own definition
}

// check compares every pair with python-jsonschema, and each call, against its own definition
// (or the first of its name whose verdict matches the label), with its label.
func check(defs []bfclTool, calls []labelled, ps []pair, py []*bool) checked {
	c := checked{labels: map[bool]int{}}
	chosen := make([]int, len(calls))
	for i := range chosen {
		chosen[i] = -1
	}
	for k, p := range ps {
		call := calls[p.call]
		switch {
		case p.got.Reading == mutators.Either:
			c.either++
			c.disagreements = append(c.disagreements,
				fmt.Sprintf("either (%s): %s line %d against %s", p.got.Reason, call.ID, call.Line, defs[p.def].Source))
		case agrees(p.got, py[k]):
			c.agree++
		default:
			c.disagreements = append(c.disagreements,
				fmt.Sprintf("python says %v, classify %s: %s line %d against %s", deref(py[k]), p.got.Reading, call.ID,
					call.Line, defs[p.def].Source))
		}
		if ch := chosen[p.call]; ch < 0 ||
			(!ps[ch].identified && !agrees(ps[ch].got, &call.Valid) && agrees(p.got, &call.Valid)) {
			chosen[p.call] = k
		}
	}
	for ci, call := range calls {
		p := ps[chosen[ci]]
		right := agrees(p.got, &call.Valid)
		if p.identified {
			c.identified++
			c.labelRight += btoi(right)
		} else {
			c.ambiguous++
			c.ambiguousRight += btoi(right)
		}
		c.labels[call.Valid]++
		c.results = append(c.results, classify.Result{Call: call.Call, Recognition: p.got})
	}
	return c
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeClassifyReport writes the checks and the class frequencies of the calls, each against its
// own definition.
func writeClassifyReport(w io.Writer, defs []bfclTool, calls []labelled, ps []pair, py []*bool, jsonOut string) error {
	c := check(defs, calls, ps, py)
	fmt.Fprintf(w, "%d labelled calls (%d valid, %d invalid), %d (call, definition) pairs classified\n", len(calls),
		c.labels[true], c.labels[false], len(ps))
	fmt.Fprintf(w, "python-jsonschema on the same pair: %d of %d agree, %d either, %d disagree\n", c.agree, len(ps),
		c.either, len(ps)-c.agree-c.either)
	for i, d := range c.disagreements {
		if i == 20 {
			fmt.Fprintf(w, "  ... and %d more\n", len(c.disagreements)-i)
			break
		}
		fmt.Fprintf(w, "  %s\n", d)
	}
	fmt.Fprintf(w, "the label, against the definition the call names among its sources: %d of %d right\n",
		c.labelRight, c.identified)
	fmt.Fprintf(w, "the label, where several definitions share the name and none names the call: %d of %d right "+
		"against one of them\n", c.ambiguousRight, c.ambiguous)
	s := classify.Summarise(c.results, nil)
	fmt.Fprintln(w)
	if err := classify.WriteText(w, s); err != nil {
		return err
	}
	if jsonOut == "" {
		return nil
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(jsonOut, append(data, '\n'), 0o644)
}

func deref(b *bool) string {
	if b == nil {
		return "not JSON"
	}
	return fmt.Sprint(*b)
}
