package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/stdio"
	"github.com/toolproof/toolproof/validator/tool"
)

// correctValidators are the validators the differential runs by default: libraries that claim
// to implement JSON Schema, so that every blocking finding is either toolproof's bug or theirs.
const correctValidators = "reference,ajv,typebox,jsonschema-go,kaptinlin,python-jsonschema"

// diffRow is one validator's run on one tool file.
type diffRow struct {
	validator, file string
	tools, skipped  int
	// either: implementation-defined cases outside the implementation_defined class (the binary64 rule)
	cases, either int
	blocking      int // blocking findings (tool, class, kind)
	blockingCases int // cases behind them
	elapsed       time.Duration
	err           error
}

// diffGroup gathers the blocking findings with one cause.
type diffGroup struct {
	validator, class, kind, sig string
	findings, cases             int
	example                     report.Finding
	file                        string
}

// differential runs every given validator over every tool file with the same seed and lists
// the blocking findings each gets, grouped by validator, class, kind and a short signature of
// the cause, with the shortest case of each group.
func differential(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("measure differential", flag.ContinueOnError)
	checks := fs.Int("checks", 100, "valid values drawn per tool (each with one distortion per class)")
	seed := fs.Uint64("seed", 1, "seed of the cases (the same for every validator)")
	list := fs.String("validators", correctValidators, "comma-separated validator names (see `toolproof validators`)")
	shrink := fs.Int("shrink-steps", harness.DefaultShrinkSteps,
		"draws sent to a validator while minimising one finding")
	dump := fs.String("json", "", "write every blocking finding as JSONL to this file")
	closeFlag := fs.Bool("close", false,
		"treat every object that does not say otherwise as closed (the open BFCL file)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("differential: give one or more tool files")
	}
	var out *json.Encoder
	if *dump != "" {
		f, err := os.Create(*dump)
		if err != nil {
			return err
		}
		defer f.Close()
		out = json.NewEncoder(f)
	}
	sets := make([]tool.Set, fs.NArg())
	for i, file := range fs.Args() {
		s, err := tool.Load(file)
		if err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		sets[i] = s
	}
	opener := &registry.Opener{Root: os.Getenv("TOOLPROOF_ROOT"), Progress: os.Stderr,
		Options: stdio.Options{Stderr: os.Stderr}}
	var rows []diffRow
	groups := map[string]*diffGroup{}
	for _, name := range strings.Split(*list, ",") {
		name = strings.TrimSpace(name)
		for i, file := range fs.Args() {
			row := diffRow{validator: name, file: file}
			start := time.Now()
			rep, err := runOne(opener, name, sets[i].Tools,
				harness.Options{Close: *closeFlag, Checks: *checks, Seed: *seed, ShrinkSteps: *shrink})
			row.elapsed = time.Since(start)
			if err != nil {
				row.err = err
				rows = append(rows, row)
				fmt.Fprintf(os.Stderr, "measure: %s on %s: %v\n", name, file, err)
				continue
			}
			tally(&row, groups, rep, name, file, out)
			rows = append(rows, row)
			fmt.Fprintf(os.Stderr, "measure: %s on %s: %d blocking findings (%d cases), %v\n", name, file, row.blocking,
				row.blockingCases, row.elapsed.Round(time.Second))
		}
	}
	writeDifferential(stdout, rows, groups, *checks, *seed)
	return nil
}

// tally counts a report of validator name on file into its row and the groups of blocking
// findings (by class, kind and signature, each with its shortest example), and writes each
// blocking finding to out when it is set.
func tally(row *diffRow, groups map[string]*diffGroup, rep *report.Report, name, file string, out *json.Encoder) {
	row.tools, row.skipped, row.cases = rep.Tools, len(rep.Skipped), rep.Cases
	for c, st := range rep.Classes {
		if c != string(mutators.ImplementationDef) {
			row.either += st.Either
		}
	}
	for _, f := range rep.Findings {
		if !f.Blocking {
			continue
		}
		row.blocking++
		row.blockingCases += f.Count
		sig := signature(f)
		key := strings.Join([]string{name, string(f.Class), string(f.Kind), sig}, "\x00")
		g := groups[key]
		if g == nil {
			g = &diffGroup{validator: name, class: string(f.Class), kind: string(f.Kind), sig: sig,
				example: f, file: file}
			groups[key] = g
		}
		g.findings++
		g.cases += f.Count
		if len(f.Args) < len(g.example.Args) {
			g.example, g.file = f, file
		}
		if out != nil {
			out.Encode(map[string]any{"validator": name, "file": file, "signature": sig, "finding": f})
		}
	}
}

// runOne opens the validator, runs the harness over the tools and closes it.
func runOne(o *registry.Opener, name string, tools []tool.Tool, opts harness.Options) (*report.Report, error) {
	v, err := o.Open(name)
	if err != nil {
		return nil, err
	}
	defer registry.Close(v)
	return harness.Run(tools, v, opts)
}

var (
	digits  = regexp.MustCompile(`-?[0-9][0-9.eE+-]*`)
	quoted  = regexp.MustCompile(`"[^"]*"|'[^']*'|\([^)]*\)`)
	spaces  = regexp.MustCompile(`\s+`)
	paths   = regexp.MustCompile(`(^|\s)/\S*`)
	maxSigs = 80
)

// signature is a short description of a finding's cause: the variant or keyword of the
// distortion and its reason with numbers and quoted text taken out; for a valid case (nothing
// distorted) the keywords the validator rejected it with.
func signature(f report.Finding) string {
	var parts []string
	if f.Variant != "" {
		parts = append(parts, f.Variant)
	}
	if f.Keyword != "" {
		parts = append(parts, f.Keyword)
	}
	if f.Reason != "" {
		r := paths.ReplaceAllString(f.Reason, "${1}PATH")
		r = quoted.ReplaceAllString(r, "…")
		r = digits.ReplaceAllString(r, "N")
		parts = append(parts, spaces.ReplaceAllString(r, " "))
	}
	if f.Kind == report.FalseReject || len(parts) == 0 {
		seen := map[string]bool{}
		var kws []string
		for _, is := range f.Issues {
			k := is.Keyword
			if k == "" {
				k = "?"
			}
			if !seen[k] {
				seen[k] = true
				kws = append(kws, k)
			}
		}
		sort.Strings(kws)
		if len(kws) > 0 {
			parts = append(parts, "rejected by "+strings.Join(kws, ","))
		} else if f.Kind == report.FalseReject {
			parts = append(parts, "rejected, no keyword")
		}
	}
	s := strings.Join(parts, ": ")
	if len(s) > maxSigs {
		s = s[:maxSigs] + "…"
	}
	return s
}

func writeDifferential(w io.Writer, rows []diffRow, groups map[string]*diffGroup, checks int, seed uint64) {
	fmt.Fprintf(w, "differential: %d checks per tool, seed %d\n\n", checks, seed)
	fmt.Fprintln(w, "| validator | file | tools | skipped | cases | either (binary64) | blocking findings | their "+
		"cases | time |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		if r.err != nil {
			fmt.Fprintf(w, "| %s | %s | error: %v |||||||\n", r.validator, shortFile(r.file), r.err)
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d | %d | %v |\n", r.validator,
			shortFile(r.file), r.tools, r.skipped,
			r.cases, r.either, r.blocking, r.blockingCases, r.elapsed.Round(time.Second))
	}
	var gs []*diffGroup
	for _, g := range groups {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool {
		a, b := gs[i], gs[j]
		if a.validator != b.validator {
			return a.validator < b.validator
		}
		if a.findings != b.findings {
			return a.findings > b.findings
		}
		return a.class+a.kind+a.sig < b.class+b.kind+b.sig
	})
	fmt.Fprintf(w, "\n%d groups of blocking findings (validator, class, kind, cause): findings (tool, class, kind) / "+
		"cases; the shortest case\n", len(gs))
	for _, g := range gs {
		e := g.example
		fmt.Fprintf(w, "\n- %s | %s | %s | %s: %d findings, %d cases\n", g.validator, g.class, g.kind,
			g.sig, g.findings, g.cases)
		fmt.Fprintf(w, "    %s (%s) %s: %s\n", e.Tool, shortFile(g.file), e.Path, truncate(string(e.Args), 300))
		if e.Reason != "" {
			fmt.Fprintf(w, "    reason: %s\n", truncate(e.Reason, 200))
		}
		if len(e.Issues) > 0 {
			b, _ := json.Marshal(e.Issues)
			fmt.Fprintf(w, "    issues: %s\n", truncate(string(b), 300))
		}
		if e.Detail != "" {
			fmt.Fprintf(w, "    detail: %s\n", truncate(strings.ReplaceAll(e.Detail, "\n", " ⏎ "), 300))
		}
	}
}

func shortFile(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}
