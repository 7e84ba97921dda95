// Command measure produces the numbers the README quotes: the generator's soundness and reach on
// the JSON-Schema-Test-Suite and on the BFCL tools, and the mutators' per-class counts. It reads
// data outside the repository; the unit tests do not need it.
//
//	go run ./cmd/measure suite DIR   # DIR: JSON-Schema-Test-Suite tests/draft2020-12
//	go run ./cmd/measure bfcl FILE   # FILE: a BFCL tools file (JSONL)
//	go run ./cmd/measure mutators FILE...
//	go run ./cmd/measure patterns -dump OUT [SOURCE...]  # strings for regex engines to check
//	go run ./cmd/measure differential [-checks N] [-validators LIST] FILE...  # blocking findings of correct validators
//	go run ./cmd/measure memory [-checks N] FILE  # the largest live heap of a run
//	go run ./cmd/measure size .  # functions over 60 lines and files over 500 lines of the module
//	go run ./cmd/measure classify -calls LOG TOOLS  # classify's verdicts on labelled calls,
//	                                                # checked by python-jsonschema
//	go run ./cmd/measure [-n N] roundtrip FILE...  # every mutation classifies back to its class and variant
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

func main() {
	draws := flag.Int("n", 100, "values to draw per schema")
	verbose = flag.Bool("v", false, "print samples of off-target candidates")
	dump := flag.String("dump", "", "write every generated value as JSONL to this file (for an independent validator)")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr,
			"usage: measure [-n N] [-dump FILE] suite DIR | bfcl FILE | mutators FILE... | differential [-checks N] "+
				"[-seed S] [-validators LIST] [-json OUT] FILE... | memory [-checks N] FILE | size DIR")
		os.Exit(2)
	}
	var err error
	switch flag.Arg(0) {
	case "suite":
		err = suite(flag.Arg(1), *draws, *dump)
	case "bfcl":
		err = bfcl(flag.Args()[1:], *draws, *dump)
	case "mutators":
		err = mutators_(flag.Args()[1:], *draws)
	case "patterns":
		err = patterns(flag.Args()[1:], os.Stdout)
	case "differential":
		err = differential(flag.Args()[1:], os.Stdout)
	case "memory":
		err = memory(flag.Args()[1:], os.Stdout)
	case "size":
		err = size(flag.Arg(1), os.Stdout)
	case "classify":
		err = classifyMeasure(flag.Args()[1:], os.Stdout)
	case "roundtrip":
		err = roundTrip(flag.Args()[1:], *draws, os.Stdout)
	default:
		err = fmt.Errorf("unknown measurement %q", flag.Arg(0))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

var verbose *bool

type drawResult struct {
	v  any
	ok bool
}

// sample draws n values from g with seeds 1..n.
func sample(g *generate.Generator, n int) (values []any, failed int) {
	gen := rapid.Custom(func(t *rapid.T) drawResult {
		v, ok := g.Draw(t)
		return drawResult{v, ok}
	})
	for i := 1; i <= n; i++ {
		r := gen.Example(i)
		if r.ok {
			values = append(values, r.v)
		} else {
			failed++
		}
	}
	return values, failed
}

type dumper struct {
	f *os.File
}

func newDumper(path string) (*dumper, error) {
	if path == "" {
		return &dumper{}, nil
	}
	f, err := os.Create(path)
	return &dumper{f}, err
}

func (d *dumper) write(schema json.RawMessage, id string, values []any) {
	if d.f == nil {
		return
	}
	for _, v := range values {
		line, _ := json.Marshal(map[string]any{"id": id, "schema": schema,
			"value": json.RawMessage(jsonvalue.MustMarshal(v))})
		d.f.Write(append(line, '\n'))
	}
}

func (d *dumper) close() error {
	if d.f == nil {
		return nil
	}
	return d.f.Close()
}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Valid bool `json:"valid"`
	} `json:"tests"`
}

func suite(dir string, n int, dumpPath string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	d, err := newDumper(dumpPath)
	if err != nil {
		return err
	}
	defer d.close()
	start := time.Now()
	var t suiteTally
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var groups []suiteGroup
		if err := json.Unmarshal(data, &groups); err != nil {
			return fmt.Errorf("%s: %v", f, err)
		}
		for i, grp := range groups {
			t.group(fmt.Sprintf("%s#%d %s", filepath.Base(f), i, grp.Description), grp, n, d)
		}
	}
	fmt.Printf("JSON-Schema-Test-Suite draft2020-12 (%s)\n", dir)
	fmt.Printf("schemas with a valid test: %d (left out: %d with remote refs, %d with no valid test)\n",
		t.eligible, t.remote, t.noValid)
	fmt.Printf("reached: %d/%d (%.1f%%)\n", t.reached, t.eligible, 100*float64(t.reached)/float64(t.eligible))
	fmt.Printf("values generated: %d, rejected by the oracle: %d\n", t.values, t.invalid)
	fmt.Printf("time: %v\n", time.Since(start).Round(time.Millisecond))
	sort.Strings(t.unreached)
	if len(t.unreached) > 0 {
		fmt.Printf("not reached (%d):\n", len(t.unreached))
		for _, u := range t.unreached {
			fmt.Println("  -", u)
		}
	}
	return nil
}

// suiteTally counts what the generator reached of the suite's schemas.
type suiteTally struct {
	eligible, reached, remote, noValid, values, invalid int
	unreached                                           []string
}

// group draws n values of one schema of the suite (named id) and counts them.
func (t *suiteTally) group(id string, grp suiteGroup, n int, d *dumper) {
	if strings.Contains(string(grp.Schema), "localhost:1234") {
		t.remote++
		return
	}
	hasValid := false
	for _, tc := range grp.Tests {
		hasValid = hasValid || tc.Valid
	}
	if !hasValid {
		t.noValid++
		return
	}
	t.eligible++
	gk, err := oracle.Compile(tool.Tool{Name: "suite", Parameters: grp.Schema})
	if err != nil {
		t.unreached = append(t.unreached, fmt.Sprintf("%s: does not compile: %v", id, err))
		return
	}
	g, err := generate.New(gk)
	if err != nil {
		t.unreached = append(t.unreached, fmt.Sprintf("%s: %v", id, err))
		return
	}
	vs, _ := sample(g, n)
	st := g.Stats()
	t.invalid += int(st.Bugs)
	if st.Bugs > 0 {
		fmt.Printf("INVALID %s: %s\n", id, st.LastBug)
	}
	t.values += len(vs)
	d.write(grp.Schema, id, vs)
	if len(vs) > 0 {
		t.reached++
	} else {
		t.unreached = append(t.unreached, fmt.Sprintf("%s: no valid value in %d draws", id, n))
	}
}

func bfcl(files []string, n int, dumpPath string) error {
	d, err := newDumper(dumpPath)
	if err != nil {
		return err
	}
	defer d.close()
	for _, file := range files {
		start := time.Now()
		// Every entry counts, also two with the same name and schema: read line by line.
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var set tool.Set
		for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			s, err := tool.Parse([]byte(line), fmt.Sprintf("%s:%d", file, i+1))
			if err != nil {
				return err
			}
			set.Tools = append(set.Tools, s.Tools...)
			set.Skipped = append(set.Skipped, s.Skipped...)
		}
		var compiled, generated, values, invalid, failedDraws int
		var problems []string
		for _, tl := range set.Tools {
			gk, err := oracle.Compile(tl)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			compiled++
			g, err := generate.New(gk)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			vs, failed := sample(g, n)
			failedDraws += failed
			st := g.Stats()
			invalid += int(st.Bugs)
			if st.Bugs > 0 {
				problems = append(problems,
					fmt.Sprintf("%s: oracle rejected %d values, last %s", tl.Name, st.Bugs, st.LastBug))
			}
			values += len(vs)
			if len(vs) > 0 {
				generated++
			} else {
				problems = append(problems, fmt.Sprintf("%s: no valid value in %d draws", tl.Name, n))
			}
			d.write(tl.Parameters, tl.Name, vs)
		}
		fmt.Printf("%s: %d tools (%d skipped while reading), %d compile, %d generate; %d values, %d rejected by the "+
			"oracle, %d draws without a value; %v\n",
			file, len(set.Tools), len(set.Skipped), compiled, generated, values, invalid, failedDraws,
			time.Since(start).Round(time.Millisecond))
		for _, p := range problems {
			fmt.Println("  -", p)
		}
	}
	return nil
}

type classCount struct {
	cs, either, na, disagree int
	example                  string
}

type mutResult struct {
	ok   bool
	muts []corpus.Case
	na   []corpus.Class
}

func mutators_(files []string, n int) error {
	for _, file := range files {
		start := time.Now()
		set, err := tool.Load(file)
		if err != nil {
			return err
		}
		var gks []*oracle.Gatekeeper
		for _, tl := range set.Tools {
			gk, err := oracle.Compile(tl)
			if err != nil {
				continue
			}
			gks = append(gks, gk)
		}
		sib := mutators.SiblingsOf(set.Tools)
		all := mutators.All()
		counts := map[corpus.Class]*classCount{}
		for _, m := range all {
			counts[m.Class()] = &classCount{}
		}
		offTarget := countMutations(gks, sib, all, counts, n)
		fmt.Printf("%s: %d tools, %d values each, %v\n", file, len(gks), n, time.Since(start).Round(time.Millisecond))
		fmt.Printf("%-24s %8s %8s %8s %10s\n", "class", "cases", "either", "n/a", "disagree")
		for _, m := range all {
			c := counts[m.Class()]
			fmt.Printf("%-24s %8d %8d %8d %10d\n", m.Class(), c.cs, c.either, c.na, c.disagree)
		}
		fmt.Printf("candidates rejected by the oracle off target (not kept): %d\n", offTarget)
		for _, m := range all {
			fmt.Printf("  %-22s %s\n", m.Class(), counts[m.Class()].example)
		}
	}
	return nil
}

// targetGen is a generator of each's result on gk's valid values, each made a mutation target
// (none when the generator drew no value), and the mutation context; ok is false when gk's
// schema has no generator.
func targetGen[R any](gk *oracle.Gatekeeper, sib *mutators.Siblings, none R,
	each func(*rapid.T, *mutators.Context,
		*mutators.Target) R) (gen *rapid.Generator[R], ctx *mutators.Context, ok bool) {
	g, err := generate.New(gk)
	if err != nil {
		return nil, nil, false
	}
	ctx = mutators.NewContext(gk, sib)
	return rapid.Custom(func(t *rapid.T) R {
		v, ok := g.Draw(t)
		if !ok {
			return none
		}
		return each(t, ctx, ctx.Target(v))
	}), ctx, true
}

// countMutations draws n values of each tool and every mutator's distortion of each, counting
// the cases, the implementation-defined ones, where a class applies nowhere, and the cases the
// tool's own parse accepts; it returns the candidates rejected off target.
func countMutations(gks []*oracle.Gatekeeper, sib *mutators.Siblings, all []mutators.Mutator,
	counts map[corpus.Class]*classCount, n int) int64 {
	var offTarget int64
	for _, gk := range gks {
		gen, ctx, ok := targetGen(gk, sib, mutResult{},
			func(t *rapid.T, _ *mutators.Context, tg *mutators.Target) mutResult {
				r := mutResult{ok: true}
				for _, m := range all {
					if mu, ok := m.Mutate(t, tg); ok {
						r.muts = append(r.muts, mu)
					} else {
						r.na = append(r.na, m.Class())
					}
				}
				return r
			})
		if !ok {
			continue
		}
		for i := 1; i <= n; i++ {
			r := gen.Example(i)
			for _, c := range r.na {
				counts[c].na++
			}
			for _, mu := range r.muts {
				c := counts[mu.Class]
				if mu.Expect == corpus.Either {
					c.either++
				} else {
					c.cs++
					if _, err := gk.Parse(mu.Args); err == nil {
						c.disagree++
					}
				}
				if c.example == "" {
					c.example = fmt.Sprintf("%s %s: %s -> %s", gk.Tool().Name, mu.Path, mu.Reason,
						truncate(string(mu.Args), 160))
				}
			}
		}
		offTarget += ctx.OffTarget()
		if *verbose {
			for _, o := range ctx.OffTargetSamples() {
				fmt.Println("OFF", gk.Tool().Name, o)
			}
		}
	}
	return offTarget
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
