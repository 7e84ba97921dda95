package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// The main job, `toolproof run` with no --validator, checks the reference gate, which is
// toolproof's own oracle and passes by construction. So that the run shows what toolproof is
// for, it is followed by a demonstration (text format only): a built-in gate that coerces types
// the way Ajv's coerceTypes does, run on the same tools, with its findings. The demonstration
// does not count in the exit status.

// demoClasses are the distortions the coercing gate lets through.
const demoClasses = "stringified_type,wrong_type,null_value"

// demoMaxTools bounds the demonstration on large tool files.
const demoMaxTools = 12

// coercingGate validates with the reference, and where that fails on a type, converts the value
// at the place to the type the schema wants, as far as it can ("20" to 20, "true" to true, 42 to
// "42", null to "" or 0), and passes on the converted value if it then validates.
func coercingGate() validator.Validator {
	return validator.Func("demo-coerce", func(t tool.Tool) (func([]byte) (any, error), error) {
		gk, err := oracle.Compile(t)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) {
			root, err := jsonvalue.Parse(args)
			if err != nil {
				return nil, &validator.Error{Tool: t.Name,
					Issues: []validator.Issue{{Keyword: "syntax", Message: "not JSON"}}}
			}
			for round := 0; round < 8; round++ {
				err := gk.Validate(root)
				if err == nil {
					return root, nil
				}
				changed := false
				for _, is := range validator.IssuesOf(err) {
					if is.Keyword == "type" {
						changed = coerceAt(&root, is.Path) || changed
					}
				}
				if !changed {
					return nil, err
				}
			}
			return nil, gk.Validate(root)
		}, nil
	})
}

// coerceAt converts the value at pointer p in *root, and reports whether it changed it.
func coerceAt(root *any, p string) bool {
	tokens, err := jsonvalue.SplitPointer(p)
	if err != nil {
		return false
	}
	if len(tokens) == 0 {
		nv, ok := coerced(*root)
		if ok {
			*root = nv
		}
		return ok
	}
	parent := *root
	for _, tok := range tokens[:len(tokens)-1] {
		var ok bool
		if parent, ok = child(parent, tok); !ok {
			return false
		}
	}
	last := tokens[len(tokens)-1]
	switch c := parent.(type) {
	case map[string]any:
		if e, ok := c[last]; ok {
			if nv, ok := coerced(e); ok {
				c[last] = nv
				return true
			}
		}
	case []any:
		if i, err := strconv.Atoi(last); err == nil && i >= 0 && i < len(c) {
			if nv, ok := coerced(c[i]); ok {
				c[i] = nv
				return true
			}
		}
	}
	return false
}

func child(v any, tok string) (any, bool) {
	switch c := v.(type) {
	case map[string]any:
		e, ok := c[tok]
		return e, ok
	case []any:
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(c) {
			return nil, false
		}
		return c[i], true
	}
	return nil, false
}

// coerced is v converted as a coercing validator would: a string holding a number, a boolean or
// null to that; a number or boolean to a string; null to "".
func coerced(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		s := strings.TrimSpace(x)
		switch {
		case jsonvalue.IsNumber(s):
			return json.Number(s), true
		case s == "true" || s == "false":
			return s == "true", true
		case s == "null" || s == "":
			return nil, true
		}
	case json.Number:
		return string(x), true
	case bool:
		return strconv.FormatBool(x), true
	case nil:
		return "", true
	}
	return nil, false
}

// writeDemo runs the coercing gate on (up to demoMaxTools of) the tools and writes its findings,
// one of each class and kind, then what to try next, each command started as prog starts toolproof.
func writeDemo(w io.Writer, tools []tool.Tool, opts harness.Options, prog string) error {
	ms, err := mutators.Select(demoClasses)
	if err != nil {
		return err
	}
	opts.Mutators, opts.CorpusDir, opts.Progress, opts.Shards = ms, "", nil, 0
	opts.Siblings = tools
	if len(tools) > demoMaxTools {
		tools = tools[:demoMaxTools]
	}
	rep, err := harness.Run(tools, coercingGate(), opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe reference validator is toolproof's own oracle: it passes by construction. What toolproof\n")
	fmt.Fprintf(w, "finds in a gate that is not strict shows on a built-in one that coerces types as Ajv's "+
		"coerceTypes\n")
	fmt.Fprintf(w, "does, on %d of these tools (a demonstration; it does not count in the exit status):\n", len(tools))
	// One finding of each class and kind: the one rapid shrank (one per class and kind in a run)
	// when there is one, else the first.
	pick := map[string]int{}
	var order []string
	for i, f := range rep.Findings {
		key := string(f.Class) + "/" + string(f.Kind)
		j, seen := pick[key]
		if !seen {
			order = append(order, key)
		}
		if !seen || (f.Shrunk && !rep.Findings[j].Shrunk) {
			pick[key] = i
		}
	}
	for _, key := range order {
		f := rep.Findings[pick[key]]
		fmt.Fprintf(w, "\n  FAIL %s\n       args:      %s\n", f.String(), truncateRunes(string(f.Args), 160))
		if f.Detail != "" {
			fmt.Fprintf(w, "       %s\n", strings.ReplaceAll(strings.TrimRight(f.Detail, "\n"), "\n", "\n       "))
		}
	}
	if len(rep.Findings) == 0 {
		fmt.Fprintf(w, "\n  (no finding: these tools have no number, boolean or null to coerce)\n")
	} else {
		fmt.Fprintf(w, "\n  %d findings in all (one case per tool, class, kind and schema place); one of each kind "+
			"is shown.\n", len(rep.Findings))
	}
	writeNext(w, prog)
	return nil
}

// writeNext writes the commands to run next, each started as prog starts toolproof.
func writeNext(w io.Writer, prog string) {
	next := [][2]string{
		{"run --validator ajv-coerce", "a real gate with the same habit (Ajv; needs Node.js and npm)"},
		{"run --validator exec:'CMD ARGS'", "your gate, any language (validator/stdio/PROTOCOL.md)"},
		{"run --tools FILE --close", "your tools, objects closed as in OpenAI strict mode"},
		{"audit --tools FILE", "where your schemas let distortions through, and why"},
		{"validators", "every validator this install runs"},
	}
	width := 0
	for _, n := range next {
		width = max(width, len(prog)+1+len(n[0]))
	}
	fmt.Fprintf(w, "\nWhat next:\n")
	for _, n := range next {
		fmt.Fprintf(w, "  %-*s   %s\n", width, prog+" "+n[0], n[1])
	}
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
