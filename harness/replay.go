package harness

import (
	"fmt"
	"strings"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// Replay checks saved cases against v: every case the oracle still confirms is sent to the gate
// of its tool and judged; nothing new is generated. tools must hold the tools the cases name.
func Replay(cs []corpus.Case, tools []tool.Tool, v validator.Validator, opts Options) (*report.Report, error) {
	byTool := map[string][]corpus.Case{}
	var names []string
	for _, c := range cs {
		if _, ok := byTool[c.Tool]; !ok {
			names = append(names, c.Tool)
		}
		byTool[c.Tool] = append(byTool[c.Tool], c)
	}
	var need []tool.Tool
	known := map[string]bool{}
	for _, t := range tools {
		if len(byTool[t.Name]) > 0 {
			need = append(need, t)
			known[t.Name] = true
		}
	}
	opts, blind := withBlind(opts, v)
	rep := newReport(v.Name(), opts)
	if blind != "" {
		rep.Notes = append(rep.Notes, blind)
	}
	for _, n := range names {
		if !known[n] {
			rep.Skipped = append(rep.Skipped, report.Skipped{Tool: n, Source: "saved cases",
				Reason: fmt.Sprintf("%d saved cases name this tool, but no tool file given defines it",
					len(byTool[n]))})
		}
	}
	sib := siblingsFor(need, opts)
	var ps []*prepared
	for _, t := range need {
		p, skip := prepareOne(t, v, opts, sib)
		if skip != nil {
			rep.Skipped = append(rep.Skipped, report.Skipped(*skip))
			continue
		}
		ps = append(ps, p)
	}
	rep.Tools = len(ps)
	pl := newPlacer(opts.Files, need)
	for _, p := range ps {
		addResult(rep, replayTool(p, byTool[p.tool.Name], pl, opts))
	}
	rep.Finish()
	return rep, nil
}

// replayTool sends the saved cases of one tool that the oracle still confirms to its gate and
// judges them.
func replayTool(p *prepared, saved []corpus.Case, pl *placer, opts Options) *toolResult {
	tr := &toolResult{tool: p.tool.Name, classes: map[string]*report.ClassStats{}}
	var run []corpus.Case
	var originals []any
	for _, c := range saved {
		if c.SchemaHash != "" && c.SchemaHash != p.tool.SchemaHash() {
			tr.notes = append(tr.notes, fmt.Sprintf("case %s was made for another version of the schema", c.ID))
		}
		if ok, why := reconfirm(p, c); !ok {
			tr.stale = append(tr.stale, c.ID+": "+why)
			continue
		}
		run = append(run, c)
		originals = append(originals, savedOriginal(c))
	}
	r := newExecutor(opts, nil, nil)
	verdicts, mutated := r.Check(p.gate, run)
	bases := savedBases(p, r, run, originals, opts)
	r.Close()
	for i := range run {
		fs := judgeAll(&run[i], bases[i], verdicts[i], mutated[i], opts)
		count(statsFor(tr.classes, run[i].Class), &run[i], verdicts[i], fs)
		for _, f := range fs {
			f.Count = 1
			f.Detail = strings.TrimSpace(f.Detail + "\n(saved case)")
			tr.findings = append(tr.findings, f)
		}
	}
	pl.locate(p, tr)
	return tr
}
