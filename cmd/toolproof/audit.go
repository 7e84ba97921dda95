package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/audit"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// auditCmd is toolproof audit: its flags, check and run.
type auditCmd struct {
	tools  multiFlag
	close  bool
	format string
	all    bool
}

func (c *auditCmd) flags(fs *flag.FlagSet) {
	toolsFlag(fs, &c.tools, "`PATH`: a tool file or directory (repeatable; default: the embedded corpus)")
	closeFlag(fs, &c.close, "audit the schemas as --close would make them")
	fs.StringVar(&c.format, "format", "text", "`FORMAT`: text or json")
	fs.BoolVar(&c.all, "all", false,
		"text: list the places each class is caught or not determined too, with their witnesses")
}

func (c *auditCmd) check(pos []string) error {
	if len(pos) > 0 {
		return usagef("audit takes no arguments (got %q); tool files go in --tools", pos)
	}
	if c.format != "text" && c.format != "json" {
		return usagef("--format %q: want text or json", c.format)
	}
	return nil
}

// toolAudit is the audit of one tool as audit prints it.
type toolAudit struct {
	Source string `json:"source,omitempty"`
	audit.Report
	// Patterns lists the tool's patterns with syntax not every regex dialect has.
	Patterns []string `json:"pattern_warnings,omitempty"`
}

func (c *auditCmd) run(_ []string, stdout, stderr io.Writer) error {
	ts, skipped, err := loadClosed(c.tools, c.close, stderr)
	if err != nil {
		return err
	}
	out, skipped := auditAll(ts, skipped)
	for i := range out {
		out[i].Places = audit.ModelDistortions(out[i].Places)
	}
	if c.format == "json" {
		enc := report.NewJSONEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Tools   []toolAudit    `json:"tools"`
			Skipped []tool.Skipped `json:"skipped"`
		}{append([]toolAudit{}, out...), append([]tool.Skipped{}, skipped...)}); err != nil {
			return err
		}
	} else {
		for _, ta := range out {
			writeToolAudit(stdout, ta, c.all)
		}
		if len(skipped) > 0 {
			fmt.Fprintf(stdout, "cannot be used (%d):\n", len(skipped))
		}
		for _, s := range skipped {
			fmt.Fprintf(stdout, "  %s\n", report.EscapeLine(s.String()))
		}
	}
	return auditStatus(out, skipped)
}

// auditStatus is audit's exit status, as run's: bad input (exit 2) when no tool could be audited,
// else findings (exit 1) when a schema lets a distortion through somewhere, else none.
func auditStatus(out []toolAudit, skipped []tool.Skipped) error {
	audited := 0
	for _, ta := range out {
		if ta.Unsatisfiable == "" && ta.OverBudget == "" && ta.CannotConstruct == "" {
			audited++
		}
	}
	if audited == 0 && len(skipped) > 0 {
		return usagef("no tool could be audited; all %d were skipped (listed above with their reasons)", len(skipped))
	}
	for _, ta := range out {
		for _, p := range ta.Places {
			if p.Status == audit.Passes {
				return errFindings
			}
		}
	}
	return nil
}

// auditAll audits each tool on its own (deterministically): in parallel, in the file's order.
// A tool the oracle cannot compile, or whose schema is unsatisfiable, joins skipped.
func auditAll(ts []tool.Tool, skipped []tool.Skipped) ([]toolAudit, []tool.Skipped) {
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
				gk, err := oracle.Compile(t)
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
				skipped = append(skipped,
					tool.Skipped{Tool: r.Tool, Source: r.Source, Reason: "schema is unsatisfiable: " + r.Unsatisfiable})
			}
			if r.CannotConstruct != "" {
				skipped = append(skipped, tool.Skipped{Tool: r.Tool, Source: r.Source, Reason: r.CannotConstruct})
			}
			if r.OverBudget != "" {
				skipped = append(skipped,
					tool.Skipped{Tool: r.Tool, Source: r.Source, Reason: "audit stopped: " + r.OverBudget})
			}
		}
	}
	return out, skipped
}

// writeToolAudit writes one tool's audit as text: for each class, where it passes (with the
// witnesses), and with all also where it is caught or not determined; text from the tool file
// (names, reasons that quote the schema, witnesses) escaped as the reports escape it.
func writeToolAudit(stdout io.Writer, ta toolAudit, all bool) {
	fmt.Fprintf(stdout, "%s\n", report.EscapeLine(ta.Tool))
	if ta.Unsatisfiable != "" {
		fmt.Fprintf(stdout, "  UNSATISFIABLE: %s\n      no arguments can be valid, so every call is rejected; run "+
			"skips this tool\n", report.EscapeLine(ta.Unsatisfiable))
		return
	}
	if ta.CannotConstruct != "" || ta.OverBudget != "" {
		fmt.Fprintf(stdout, "  SKIPPED: %s\n", report.EscapeLine(ta.CannotConstruct+ta.OverBudget))
		return
	}
	for _, w := range ta.Patterns {
		fmt.Fprintf(stdout, "  warning: %s\n", report.EscapeLine(w))
	}
	if ta.Drawn == 0 {
		fmt.Fprintf(stdout, "  no valid value found: nothing could be determined\n")
	}
	for _, c := range mutators.Classes() {
		byVerdict := map[audit.Status][]audit.Place{}
		n := 0
		for _, p := range ta.Places {
			if p.Class == c {
				byVerdict[p.Status] = append(byVerdict[p.Status], p)
				n++
			}
		}
		if n == 0 {
			continue
		}
		passes, caught, unknown := byVerdict[audit.Passes], byVerdict[audit.Caught], byVerdict[audit.NotDetermined]
		fmt.Fprintf(stdout, "  %-22s %s\n", c, classStatus(n, len(passes), len(caught), len(unknown)))
		for _, p := range passes {
			fmt.Fprintf(stdout, "      passes  %s\n", report.EscapeLine(p.Why))
			printWitness(stdout, p.Witness)
		}
		if all {
			for _, p := range caught {
				fmt.Fprintf(stdout, "      caught  %s\n", report.EscapeLine(p.Why))
				printWitness(stdout, p.Witness)
			}
			for _, p := range unknown {
				fmt.Fprintf(stdout, "      not determined  %s: %s\n", report.EscapeLine(where(p.Path)),
					report.EscapeLine(p.Why))
			}
		}
	}
}

// classStatus says where a class passes, is caught or is not determined, of n places.
func classStatus(n, passes, caught, unknown int) string {
	var status string
	switch {
	case passes > 0:
		status = fmt.Sprintf("PASSES at %d of %d places", passes, n)
	case unknown == 0:
		status = fmt.Sprintf("caught at all %d places", n)
	case caught == 0:
		status = fmt.Sprintf("not determined at %d places", n)
	default:
		status = fmt.Sprintf("caught at %d of %d places, not determined at %d", caught, n, unknown)
	}
	if passes > 0 && unknown > 0 {
		status += fmt.Sprintf(", not determined at %d", unknown)
	}
	return status
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
	fmt.Fprintf(w, "              witness at %s: %s\n              %s\n", report.EscapeLine(where(wt.Path)),
		report.EscapeLine(args),
		report.EscapeLine(verdict))
}

func where(path string) string {
	if path == "" {
		return "the root"
	}
	return path
}
