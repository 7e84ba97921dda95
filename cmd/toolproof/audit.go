package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

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
	all := fs.Bool("all", false, "text: list the places each class is caught too, not only where it passes")
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
	type toolAudit struct {
		Tool   string        `json:"tool"`
		Source string        `json:"source,omitempty"`
		Places []audit.Place `json:"places"`
	}
	var out []toolAudit
	for _, t := range ts {
		if *closeObjects {
			t = tool.Close(t)
		}
		gk, err := validator.Compile(t)
		if err != nil {
			skipped = append(skipped, tool.Skipped{Tool: t.Name, Source: t.Source, Reason: err.Error()})
			continue
		}
		out = append(out, toolAudit{Tool: t.Name, Source: t.Source, Places: audit.Tool(gk.Schema())})
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Tools   []toolAudit    `json:"tools"`
			Skipped []tool.Skipped `json:"skipped"`
		}{out, append([]tool.Skipped{}, skipped...)})
	}
	for _, ta := range out {
		fmt.Fprintf(stdout, "%s\n", ta.Tool)
		for _, c := range mutators.Classes() {
			var caught, passes []audit.Place
			for _, p := range ta.Places {
				if p.Class != c {
					continue
				}
				if p.Passes {
					passes = append(passes, p)
				} else {
					caught = append(caught, p)
				}
			}
			if len(caught)+len(passes) == 0 {
				continue
			}
			status := "caught"
			if len(passes) > 0 {
				status = fmt.Sprintf("PASSES at %d of %d places", len(passes), len(caught)+len(passes))
			} else {
				status = fmt.Sprintf("caught at all %d places", len(caught))
			}
			fmt.Fprintf(stdout, "  %-22s %s\n", c, status)
			for _, p := range passes {
				fmt.Fprintf(stdout, "      passes  %s\n", p.Why)
			}
			if *all {
				for _, p := range caught {
					fmt.Fprintf(stdout, "      caught  %s\n", p.Why)
				}
			}
		}
	}
	for _, s := range skipped {
		fmt.Fprintf(stdout, "skipped %s\n", s)
	}
	return nil
}
