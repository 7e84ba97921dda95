package harness

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/internal/execute"
	"github.com/toolproof/toolproof/harness/internal/rapidseam"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// Run checks every tool against v and returns the report. It needs no *testing.T and writes no
// file unless Options.CorpusDir names a directory. When only saving the findings' cases there
// fails, Run returns the whole report with a *SaveError.
func Run(tools []tool.Tool, v validator.Validator, opts Options) (*report.Report, error) {
	cfg := rapidseam.Resolve(opts.Checks, opts.Seed, true)
	release := rapidseam.Acquire(cfg)
	defer release()
	all := tools // the whole list, when this is a shard of it
	tools, err := shardOf(tools, &opts)
	if err != nil {
		return nil, err
	}
	saved, err := corpus.Load(opts.CorpusDir)
	if err != nil {
		return nil, err
	}
	opts, blind := withBlind(opts, v)
	rep := newReport(v.Name(), opts)
	if blind != "" {
		rep.Notes = append(rep.Notes, blind)
	}
	if w := newWeighted(opts.mutators(), opts.Weights, opts.WeightsFloor); w != nil {
		rep.Notes = append(rep.Notes, w.note())
	}
	rep.Shard = newShardInfo(opts, all)
	results := make([]*toolResult, len(tools))
	skips := make([]*tool.Skipped, len(tools))
	finished := make([]bool, len(tools))
	shared := newRunShared(saved)
	shared.silence = execute.NewSilence(MaxSilentCalls)
	done := 0
	pipeline(tools, v, opts, shared, func(i int, tr *toolResult, skip *tool.Skipped) {
		results[i], skips[i], finished[i] = tr, skip, true
		done++
		if opts.Progress != nil {
			opts.Progress(done, len(tools))
		}
	})
	reportFinished(rep, tools, results, skips, finished, shared.silence, opts)
	rep.Seed = cfg.Seed
	rep.Notes = append(rep.Notes, shared.notes()...)
	rep.Finish()
	return rep, saveFindings(opts.CorpusDir, rep)
}

// reportFinished puts in rep the results and skips of the tools that finished, in the tools'
// order, and says why the run stopped early, if it did. A validator that stopped answering: the tools
// after the first one it stopped answering on are left out, checked or not (execute.Silence).
func reportFinished(rep *report.Report, tools []tool.Tool, results []*toolResult, skips []*tool.Skipped,
	finished []bool, s *execute.Silence, opts Options) {
	cut, silent := s.Cutoff()
	kept := len(tools)
	if cut >= 0 {
		kept = cut + 1
	}
	done := 0
	for i := 0; i < kept; i++ {
		if !finished[i] {
			continue
		}
		done++
		if tr := results[i]; tr != nil {
			addResult(rep, tr)
			addShrinks(rep.Shard, i, tr.firsts)
			rep.Tools++
		}
		if skip := skips[i]; skip != nil {
			rep.Skipped = append(rep.Skipped, report.Skipped(*skip))
			addSkipped(rep.Shard, i)
		}
	}
	switch {
	case opts.stopped():
		rep.Interrupted = fmt.Sprintf("%v: %d of %d tools checked or skipped, %d not begun", context.Cause(opts.Stop),
			done, len(tools), len(tools)-done)
	case silent != nil:
		rep.Interrupted = fmt.Sprintf("%v, on tool %s: %d of %d tools checked or skipped, %d not checked", silent,
			tools[cut].Name, done, len(tools), len(tools)-done)
	}
}

// saveFindings saves the case of every blocking finding in dir ("": none); one that cannot be
// saved does not keep the others from being tried.
func saveFindings(dir string, rep *report.Report) error {
	if dir == "" {
		return nil
	}
	var failed *SaveError
	for _, f := range rep.Findings {
		if !f.Blocking || f.Case.ID == "" {
			continue
		}
		if _, err := corpus.Save(dir, f.Case); err != nil {
			if failed == nil {
				failed = &SaveError{Dir: dir, Err: err}
			}
			failed.Unsaved++
		}
	}
	if failed == nil {
		return nil
	}
	return failed
}

// A SaveError is a failure to save the minimal cases of a run's findings in Options.CorpusDir:
// the run itself is whole, and Run returns its report beside the error.
type SaveError struct {
	Dir     string
	Unsaved int   // the findings whose case was not saved
	Err     error // the first failure
}

func (e *SaveError) Error() string {
	return fmt.Sprintf("saving the minimal cases in %s: %d not saved: %v (make the directory writable, "+
		"or choose another)", e.Dir, e.Unsaved, e.Err)
}

func (e *SaveError) Unwrap() error { return e.Err }

// pipeline is the one way tools are checked, by Run and Check alike: opts.Jobs workers (0:
// GOMAXPROCS) each prepare a tool, check it and drop it, so a run over thousands of tools holds
// only the tools in progress. done gets each tool's result (nil when skipped, with the reason),
// one call at a time, in the order the tools finish.
func pipeline(tools []tool.Tool, v validator.Validator, opts Options, shared *runShared,
	done func(i int, tr *toolResult, skip *tool.Skipped)) {
	sib := siblingsFor(tools, opts)
	shared.placer = newPlacer(opts.Files, tools)
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	// one checks tool i. A gate that ends its goroutine (t.Fatal from a Go gate calls
	// runtime.Goexit) must not leave the others waiting for this tool: the tool is recorded as
	// skipped, marked scored, and another worker takes this one's place.
	var worker func()
	one := func(i int) {
		finished := false
		defer func() {
			if finished {
				return
			}
			shared.shrink.scored(i, nil)
			mu.Lock()
			defer mu.Unlock()
			done(i, nil, &tool.Skipped{Tool: tools[i].Name, Source: tools[i].Source,
				Reason: "the check of this tool stopped: the gate ended its goroutine (runtime.Goexit, as t.Fatal " +
					"does) or panicked"})
			wg.Add(1)
			go worker()
		}()
		topts := opts
		stop, silent, release := shared.silence.ForTool(i, opts.Stop)
		defer release()
		topts.Stop = stop
		tr, skip := prepareAndCheck(tools[i], i, v, topts, sib, shared, silent)
		finished = true
		mu.Lock()
		defer mu.Unlock()
		done(i, tr, skip)
	}
	worker = func() {
		defer wg.Done()
		for i := range next {
			one(i)
		}
	}
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go worker()
	}
	handOut(next, len(tools), opts, shared)
	close(next)
	wg.Wait()
}

// handOut hands the indexes of n tools to the workers through next, in order, until the run
// stops; the tools not begun then are marked scored, so that no tool under way waits for them
// to decide what it shrinks.
func handOut(next chan<- int, n int, opts Options, shared *runShared) {
	for i := range n {
		select {
		case next <- i:
			continue
		case <-opts.stopDone():
		case <-shared.silence.TrippedDone():
			// The validator stopped answering on a tool begun already: the tools after
			// it are left out (execute.Silence).
		}
		for j := i; j < n; j++ {
			shared.shrink.scored(j, nil)
		}
		return
	}
}

// prepareAndCheck prepares tool i and checks it; a tool that cannot be prepared, or that has no
// valid value checked, is skipped with its reason.
func prepareAndCheck(t tool.Tool, i int, v validator.Validator, opts Options, sib *mutators.Siblings, shared *runShared,
	silent *execute.ToolSilence) (*toolResult, *tool.Skipped) {
	p, skip := prepareOne(t, v, opts, sib)
	var tr *toolResult
	if p != nil {
		tr = checkTool(p, i, shared, opts, silent)
	} else {
		shared.shrink.scored(i, nil)
	}
	if tr != nil && tr.noValue() {
		reason := tr.noValueReason()
		if opts.stopped() {
			reason = "the run was stopped before a valid case of this tool was checked"
		}
		return nil, &tool.Skipped{Tool: p.tool.Name, Source: p.tool.Source, Reason: reason}
	}
	return tr, skip
}

// runShared is what the tools of one run share: the saved cases, the tool files, who shrinks
// what, and the process deaths of an external validator.
type runShared struct {
	saved   []corpus.Case
	placer  *placer // the tool files, to place findings in (nil: none)
	shrink  *shrinkSet
	deaths  *execute.Deaths
	silence *execute.Silence
}

func newRunShared(saved []corpus.Case) *runShared {
	return &runShared{saved: saved, shrink: newShrinkSet(), deaths: &execute.Deaths{}}
}

// notes are the run-level notes: process deaths that no call reproduced.
func (s *runShared) notes() []string {
	n, sample := s.deaths.Unreproduced()
	if n == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the validator's process died %d times with calls in flight, none of which crashed "+
		"it again when run alone (not counted as findings); one of them: %s", n, sample)}
}
