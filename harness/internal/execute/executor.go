package execute

import (
	"bytes"
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/validator"
)

// An Executor sends the cases of one tool to its gate and gives back one verdict per case, in
// the order sent. An in-process gate runs safely: a panic is a crash, a call slower than the
// timeout is a hang (the goroutine is abandoned), a change to the argument bytes is recorded;
// the cases of one draw go to a worker goroutine in one hand-off. A gate in another process
// gets its calls in one batch (validator.BatchGate), and every crash is run again alone to
// blame the call that causes it (blame). What a draw sends depends on the crashes proven so far
// (crashy.go). An Executor is for one goroutine; Close it when done.
type Executor struct {
	timeout    time.Duration
	onlyReject bool    // send only must-reject cases (Config.OnlyReject)
	deaths     *Deaths // the process deaths seen, and whether some call reproduced each
	work       chan *batch
	hung       int          // timeouts so far
	silence    *ToolSilence // the tool's count of timeouts in a row, in the order drawn (nil: not counted)
	crash      crashes      // the validator's proven crashes on this tool (crashy.go)
}

// Config is what an Executor needs to know.
type Config struct {
	Timeout    time.Duration // an in-process call with no verdict after this is a hang (> 0)
	OnlyReject bool          // send only the must-reject cases; the others are not sent
	Deaths     *Deaths       // the run's process deaths (nil: not recorded)
	Silence    *ToolSilence  // the tool's count of silent calls (nil: not counted)
}

type batch struct {
	gate     validator.Gate
	args     [][]byte
	out      []validator.Verdict
	progress atomic.Int64 // cases finished
	done     chan struct{}
}

// New is an Executor for one tool.
func New(c Config) *Executor {
	return &Executor{timeout: c.Timeout, onlyReject: c.OnlyReject, deaths: c.Deaths, silence: c.Silence}
}

// Hangs is how many calls have had no verdict within the timeout so far.
func (e *Executor) Hangs() int { return e.hung }

// Observe counts the verdicts of one batch of calls towards the tool's silence, in the order
// drawn, and reports whether the tool stops here (see ToolSilence).
func (e *Executor) Observe(vs []validator.Verdict) bool { return e.silence.observe(vs) }

// CrashNotes say which cases were not sent for the validator's crashes, and why.
func (e *Executor) CrashNotes() []string { return e.crash.notes() }

func worker(work chan *batch) {
	for b := range work {
		for i := int(b.progress.Load()); i < len(b.args); i++ {
			b.out[i] = safeCheck(b.gate, b.args[i])
			b.progress.Add(1)
		}
		close(b.done)
	}
}

func safeCheck(g validator.Gate, args []byte) (v validator.Verdict) {
	defer func() {
		if p := recover(); p != nil {
			v = validator.Failed(validator.Crash, fmt.Sprintf("panic: %v\n%s", p, trimStack(debug.Stack())))
		}
	}()
	return g.Check(context.Background(), args)
}

func trimStack(s []byte) string {
	lines := strings.Split(string(s), "\n")
	if len(lines) > 24 {
		lines = append(lines[:24], "...")
	}
	return strings.Join(lines, "\n")
}

// Check runs every case through the gate and returns one verdict per case, plus, per case,
// whether the gate changed the bytes it was given.
func (e *Executor) Check(g validator.Gate, cs []corpus.Case) (out []validator.Verdict, mutated []bool) {
	return e.checkCases(context.Background(), g, cs, false)
}

// checkCases is check; with lead, cs is one draw, its valid value first and that value's
// distortions after it, and blame judges it on its valid case alone when that case crashes.
// ctx ends the wait of a gate in another process (a check in flight whose tool stopped): what
// it has not answered then is a Timeout "cancelled", which no one judges.
func (e *Executor) checkCases(ctx context.Context, g validator.Gate, cs []corpus.Case,
	lead bool) (out []validator.Verdict, mutated []bool) {
	if !e.onlyReject {
		return e.send(ctx, g, cs, lead)
	}
	// Only the must-reject cases go to the gate; the others are not sent.
	out = make([]validator.Verdict, len(cs))
	mutated = make([]bool, len(cs))
	var send []corpus.Case
	var at []int
	for i := range cs {
		if cs[i].Expect == corpus.Reject {
			send = append(send, cs[i])
			at = append(at, i)
		} else {
			out[i] = validator.NotSent("--only-reject: only must-reject cases are sent")
		}
	}
	if len(send) > 0 {
		vs, ms := e.send(ctx, g, send, false) // the valid case is not sent
		for j, i := range at {
			out[i], mutated[i] = vs[j], ms[j]
		}
	}
	return out, mutated
}

// CheckAll is Check for every case, the must-accept ones too when only must-reject cases are
// sent otherwise.
func (e *Executor) CheckAll(g validator.Gate, cs []corpus.Case) ([]validator.Verdict, []bool) {
	return e.send(context.Background(), g, cs, false)
}

// send sends cs to the gate; with lead, as checkCases has it.
func (e *Executor) send(ctx context.Context, g validator.Gate, cs []corpus.Case,
	lead bool) ([]validator.Verdict, []bool) {
	mutated := make([]bool, len(cs))
	lead = lead && len(cs) > 1 && cs[0].Class == corpus.Valid
	if bg, ok := g.(validator.BatchGate); ok {
		args := make([][]byte, len(cs))
		for i := range cs {
			args[i] = cs[i].Args
		}
		return e.blame(g, args, bg.CheckBatch(ctx, args), lead), mutated
	}
	out := make([]validator.Verdict, len(cs))
	if _, ok := g.(validator.Bounded); ok {
		// A gate of toolproof's own: no hang to guard against, no copy to compare. Called
		// here; a panic is still a crash.
		for i := range cs {
			out[i] = safeCheck(g, cs[i].Args)
		}
	} else {
		given := make([][]byte, len(cs))
		for i := range cs {
			given[i] = bytes.Clone(cs[i].Args)
		}
		e.guarded(g, given, out)
		for i := range cs {
			mutated[i] = !bytes.Equal(given[i], cs[i].Args)
		}
	}
	if lead && out[0].Fault == validator.Crash {
		// An in-process gate's crash is its call's own: the draw is judged on it alone, as
		// blame judges one sent to a process.
		notSentAfterLead(out, mutated)
	}
	return out, mutated
}

// guarded runs the calls on a worker goroutine, each verdict into out. A call with no verdict
// after the timeout is a hang: recorded, its worker abandoned, and the next calls go on a new
// one.
func (e *Executor) guarded(g validator.Gate, given [][]byte, out []validator.Verdict) {
	for from := 0; from < len(given); {
		if e.work == nil {
			e.work = make(chan *batch)
			go worker(e.work)
		}
		// The batch has its own verdicts: an abandoned worker that wakes up writes only there.
		b := &batch{gate: g, args: given[from:], out: make([]validator.Verdict, len(given)-from),
			done: make(chan struct{})}
		e.work <- b
		timer := time.NewTimer(e.timeout)
		seen := int64(0)
	wait:
		for {
			select {
			case <-b.done:
				timer.Stop()
				copy(out[from:], b.out)
				from = len(given)
				break wait
			case <-timer.C:
				now := b.progress.Load()
				if now > seen {
					seen = now
					timer.Reset(e.timeout)
					continue
				}
				// The worker is stuck in the gate on case from+now: record it, abandon the
				// worker, and go on with the next case on a new one.
				copy(out[from:], b.out[:now])
				i := from + int(now)
				out[i] = validator.Failed(validator.Timeout,
					fmt.Sprintf("no verdict after %v; the call was abandoned", e.timeout))
				e.hung++
				e.work = nil
				from = i + 1
				break wait
			}
		}
	}
}

// blame runs every call that got a Crash again, alone (validator.Isolator, else Check on its
// own): when a process dies, every call in flight gets a Crash, but only the call that kills it
// crashes alone. The others get the verdicts they get alone; a death that no call reproduces is
// counted in the Deaths. With lead, args[0] is a valid value the other calls distort: it runs
// alone first, and when it crashes the others are not sent, as crashy.go has it.
func (e *Executor) blame(g validator.Gate, args [][]byte, vs []validator.Verdict, lead bool) []validator.Verdict {
	var crashed []int
	for i, v := range vs {
		if v.Fault == validator.Crash {
			crashed = append(crashed, i)
		}
	}
	if len(crashed) == 0 {
		return vs
	}
	alone := g.Check
	if iso, ok := g.(validator.Isolator); ok {
		alone = iso.CheckAlone
	}
	if lead && crashed[0] == 0 {
		if e.again(alone, args, vs, 0) {
			// The draw is judged on its valid case alone, as when that case is sent first
			// (crashy.go): the distortions' verdicts are dropped, and the others cut short are
			// not run again, so the deaths that cut them short may be theirs: not deaths
			// that no call reproduced.
			for _, v := range vs[1:] {
				if v.Fault == validator.Crash {
					e.deaths.record(v, true)
				}
			}
			notSentAfterLead(vs, nil)
			return vs
		}
		crashed = crashed[1:]
	}
	// Latest first: a validator that reads its calls in order died on the earliest it had not
	// answered, so the others run before it, and the restart that call causes overlaps the work
	// that follows instead of holding up the rest.
	for k := len(crashed) - 1; k >= 0; k-- {
		e.again(alone, args, vs, crashed[k])
	}
	return vs
}

// again runs call i, cut short by a death, alone, and gives it the verdict it gets there; it
// reports whether the call crashed the validator again.
func (e *Executor) again(alone func(context.Context, []byte) validator.Verdict, args [][]byte,
	vs []validator.Verdict, i int) bool {
	death := vs[i]
	v := alone(context.Background(), args[i])
	reproduced := v.Fault == validator.Crash
	if reproduced {
		v = provenAlone(v)
	}
	e.deaths.record(death, reproduced)
	vs[i] = v
	return reproduced
}

// Deaths records, for each process death, whether some call that was in flight crashed the
// validator again when run alone, and whether some tool has a proven crash. Shared by the
// tools of a run.
type Deaths struct {
	mu    sync.Mutex
	m     map[deathKey]bool
	crash atomic.Bool // some tool has a proven crash
}

// crashed notes that a tool has a proven crash.
func (d *Deaths) crashed() {
	if d != nil {
		d.crash.Store(true)
	}
}

// anyCrash says whether some tool has a proven crash.
func (d *Deaths) anyCrash() bool { return d != nil && d.crash.Load() }

// deathKey tells one process death from another: by the number the client gave it
// (Verdict.Death), else by its detail.
type deathKey struct {
	death  uint64
	detail string
}

// record notes that v's death was reproduced, or not, by the call v was given to.
func (d *Deaths) record(v validator.Verdict, reproduced bool) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.m == nil {
		d.m = map[deathKey]bool{}
	}
	k := deathKey{v.Death, v.Detail}
	d.m[k] = d.m[k] || reproduced
}

// Unreproduced says how many deaths no call reproduced, with one of their details.
func (d *Deaths) Unreproduced() (int, string) {
	if d == nil {
		return 0, ""
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	n, sample := 0, ""
	for k, ok := range d.m {
		if !ok {
			n++
			if sample == "" || k.detail < sample {
				sample = k.detail
			}
		}
	}
	return n, sample
}

// Close lets the worker goroutine of an in-process gate go.
func (e *Executor) Close() {
	if e.work != nil {
		close(e.work)
		e.work = nil
	}
}
