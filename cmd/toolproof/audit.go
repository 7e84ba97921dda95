package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/toolproof/toolproof/audit"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

func cmdAudit(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("toolproof audit", flag.ContinueOnError)
	var tools multiFlag
	fs.Var(&tools, "tools", "tool file or directory (repeatable; default: the embedded corpus)")
	closeObjects := fs.Bool("close", false, "audit the schemas as --close would make them")
	format := fs.String("format", "text", "text or json")
	all := fs.Bool("all", false, "text: list the places each class is caught or not determined too, with their witnesses")
	pos, err := parse(fs, args, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("audit takes no arguments (got %q); tool files go in --tools", pos)
	}
	if *format != "text" && *format != "json" {
		return usagef("--format %q: want text or json", *format)
	}
	ts, skipped, err := loadTools(tools, stderr)
	if err != nil {
		return err
	}
	if *closeObjects {
		for i := range ts {
			ts[i] = tool.Close(ts[i])
		}
	}
	type toolAudit struct {
		Source string `json:"source,omitempty"`
		audit.Report
		// Patterns lists the tool's patterns with syntax not every regex dialect has.
		Patterns []string `json:"pattern_warnings,omitempty"`
	}
	// Each tool is audited on its own (deterministically): in parallel, in the file's order.
	sib := mutators.SiblingsOf(ts)
	reps := make([]*toolAudit, len(ts))
	fails := make([]*tool.Skipped, len(ts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(ts)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(ts); i = int(next.Add(1)) - 1 {
				t := ts[i]
				gk, err := validator.Compile(t)
				if err != nil {
					fails[i] = &tool.Skipped{Tool: t.Name, Source: t.Source, Reason: err.Error()}
					continue
				}
				reps[i] = &toolAudit{Source: t.Source, Report: audit.Tool(gk, audit.Options{Siblings: sib}),
					Patterns: t.PatternWarnings()}
			}
		}()
	}
	wg.Wait()
	var out []toolAudit
	for i := range ts {
		if fails[i] != nil {
			skipped = append(skipped, *fails[i])
		}
		if r := reps[i]; r != nil {
			out = append(out, *r)
			if r.Unsatisfiable != "" {
				skipped = append(skipped, tool.Skipped{Tool: r.Tool, Source: r.Source, Reason: "schema is unsatisfiable: " + r.Unsatisfiable})
			}
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Tools   []toolAudit    `json:"tools"`
			Skipped []tool.Skipped `json:"skipped"`
		}{append([]toolAudit{}, out...), append([]tool.Skipped{}, skipped...)})
	}
	for _, ta := range out {
		fmt.Fprintf(stdout, "%s\n", ta.Tool)
		if ta.Unsatisfiable != "" {
			fmt.Fprintf(stdout, "  UNSATISFIABLE: %s\n      no arguments can be valid, so every call is rejected; run skips this tool\n", ta.Unsatisfiable)
			continue
		}
		for _, w := range ta.Patterns {
			fmt.Fprintf(stdout, "  warning: %s\n", w)
		}
		if ta.Drawn == 0 {
			fmt.Fprintf(stdout, "  no valid value found: nothing could be determined\n")
		}
		for _, c := range mutators.Classes() {
			byVerdict := map[audit.Verdict][]audit.Place{}
			n := 0
			for _, p := range ta.Places {
				if p.Class == c {
					byVerdict[p.Verdict] = append(byVerdict[p.Verdict], p)
					n++
				}
			}
			if n == 0 {
				continue
			}
			passes, caught, unknown := byVerdict[audit.Passes], byVerdict[audit.Caught], byVerdict[audit.NotDetermined]
			var status string
			switch {
			case len(passes) > 0:
				status = fmt.Sprintf("PASSES at %d of %d places", len(passes), n)
			case len(unknown) == 0:
				status = fmt.Sprintf("caught at all %d places", n)
			case len(caught) == 0:
				status = fmt.Sprintf("not determined at %d places", n)
			default:
				status = fmt.Sprintf("caught at %d of %d places, not determined at %d", len(caught), n, len(unknown))
			}
			if len(passes) > 0 && len(unknown) > 0 {
				status += fmt.Sprintf(", not determined at %d", len(unknown))
			}
			fmt.Fprintf(stdout, "  %-22s %s\n", c, status)
			for _, p := range passes {
				fmt.Fprintf(stdout, "      passes  %s\n", p.Why)
				printWitness(stdout, p.Witness)
			}
			if *all {
				for _, p := range caught {
					fmt.Fprintf(stdout, "      caught  %s\n", p.Why)
					printWitness(stdout, p.Witness)
				}
				for _, p := range unknown {
					fmt.Fprintf(stdout, "      not determined  %s: %s\n", where(p.Path), p.Why)
				}
			}
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(stdout, "cannot be used (%d):\n", len(skipped))
	}
	for _, s := range skipped {
		fmt.Fprintf(stdout, "  %s\n", s)
	}
	return nil
}

// printWitness prints the argument text that backs a verdict, cut at 200 bytes (--format json
// has it whole).
func printWitness(w io.Writer, wt *audit.Witness) {
	if wt == nil {
		return
	}
	args := wt.Args
	if len(args) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(args[cut]) {
			cut--
		}
		args = args[:cut] + "... (cut; --format json has it whole)"
	}
	verdict := "accepted"
	if wt.Issue != "" {
		verdict = "rejected: " + wt.Issue
	}
	fmt.Fprintf(w, "              witness at %s: %s\n              %s\n", where(wt.Path), args, verdict)
}

func where(path string) string {
	if path == "" {
		return "the root"
	}
	return path
}
