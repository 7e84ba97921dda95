package harness

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/internal/rapidseam"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// DefaultCorpusDir is the conventional regression corpus of a package's tests, relative to the
// package under test (like rapid's testdata/rapid): set Options.CorpusDir to it to keep failures.
const DefaultCorpusDir = "testdata/toolproof"

// Check proves every tool against v, each tool a subtest: valid values must be accepted and
// every distortion the oracle confirms rejected. The cases of Options.CorpusDir are replayed first;
// each new failure is shrunk by rapid, printed with a -want +got diff where values differ, and
// saved there. The tools are checked by Options.Jobs workers side by side, as Run checks them.
func Check(t *testing.T, tools []tool.Tool, v validator.Validator, opts Options) {
	t.Helper()
	saved, err := corpus.Load(opts.CorpusDir)
	if err != nil {
		t.Fatalf("toolproof: regression corpus: %v", err)
	}
	cfg := rapidseam.Resolve(opts.Checks, opts.Seed, false)
	release := rapidseam.Acquire(cfg)
	defer release()
	opts, blind := withBlind(opts, v)
	if blind != "" {
		t.Logf("toolproof: %s", blind)
	}
	t.Logf("toolproof: %d checks per tool, seed %d (Options.Seed or -rapid.seed repeats them)", cfg.Checks, cfg.Seed)
	// The tools are checked by Run's pipeline; each subtest reports one tool, in file order.
	shared := newRunShared(saved)
	results := make([]*toolResult, len(tools))
	skips := make([]*tool.Skipped, len(tools))
	pipeline(tools, v, opts, shared, func(i int, tr *toolResult, skip *tool.Skipped) {
		results[i], skips[i] = tr, skip
	})
	checked := 0
	for i, tr := range results {
		if skips[i] != nil {
			t.Logf("toolproof: skipped %s", skips[i])
		}
		if tr != nil {
			checked++
		}
	}
	for _, n := range shared.notes() {
		t.Logf("toolproof: %s", n)
	}
	if checked == 0 {
		t.Fatalf("toolproof: none of the %d tools can be checked against %s", len(tools), v.Name())
	}
	for i, tr := range results {
		if tr == nil {
			continue
		}
		t.Run(tools[i].Name, func(t *testing.T) {
			reportTool(t, tr, opts)
		})
	}
}

// CheckFile is Check for the tools in a file or directory (see tool.Load).
func CheckFile(t *testing.T, path string, v validator.Validator, opts Options) {
	t.Helper()
	set, err := tool.Load(path)
	if err != nil {
		t.Fatalf("toolproof: %v", err)
	}
	for _, s := range set.Skipped {
		t.Logf("toolproof: skipped %s", s)
	}
	Check(t, set.Tools, v, opts)
}

func reportTool(t *testing.T, tr *toolResult, opts Options) {
	t.Helper()
	for _, f := range tr.findings {
		msg := f.Explain()
		if !f.Blocking {
			t.Logf("%s", msg)
			continue
		}
		if opts.CorpusDir != "" && f.Case.ID != "" {
			if path, err := corpus.Save(opts.CorpusDir, f.Case); err != nil {
				t.Logf("toolproof: could not save the case: %v", err)
			} else {
				msg += "\n  saved: " + path
			}
		}
		t.Errorf("%s", msg)
	}
	if tr.bugs > 0 {
		t.Errorf("toolproof: generator bug: the oracle rejected %d generated values (never used); last: %s",
			tr.bugs, tr.bugText)
	}
	for _, s := range tr.stale {
		t.Logf("toolproof: stale saved case %s", s)
	}
	for _, n := range tr.notes {
		t.Logf("toolproof: %s", n)
	}
	t.Logf("toolproof: %s", summary(tr))
}

func summary(tr *toolResult) string {
	var classes []string
	for c := range tr.classes {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	var parts []string
	total := 0
	for _, c := range classes {
		st := tr.classes[c]
		total += st.Cases
		parts = append(parts, fmt.Sprintf("%s %d/%d", c, st.Cases-st.Failed, st.Cases))
	}
	return fmt.Sprintf("%d cases (ok/total: %s)", total, strings.Join(parts, ", "))
}
