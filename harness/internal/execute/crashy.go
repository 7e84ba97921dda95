package execute

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/validator"
)

// A validator that dies on some input dies again and again on the cases that hold it: every
// distortion of a valid value that holds it, every case of a class that adds it. Each death
// costs a restart and a call run again alone to prove it, and the report would list the same
// cause in every class. So (blame runs every crash again alone, so a Crash verdict that comes
// back is a proven one):
//   - a draw whose valid case crashes the validator alone is judged on that case alone: its
//     distortions are not sent, or, when they were sent beside it, their verdicts are dropped;
//   - once a tool has a proven crash, each of its draws sends its valid case first, alone; so
//     does every draw of a gate that can run a call alone (validator.Isolator) once the run has
//     a proven crash: such a crash then costs the one death that proves it;
//   - a class of distortions with maxClassCrashes proven crashes on a tool is sent no more
//     cases of that tool (the valid cases are always sent: they gate the rest).
// A draw gets the same verdicts whichever way it is sent, so the report does not depend on
// when, in a run with several jobs, the first crash was proven. What is not sent is counted
// not applicable and in a note of the tool; every crash reported is still proven, on the call
// that causes it.

// maxClassCrashes is how many proven crashes of one tool and class end the sending of that
// class's cases.
const maxClassCrashes = 2

const (
	notSentAfterCrash = "not run: the validator crashes on the valid value this case distorts"
	notSentClass      = "not run: the validator crashes on this class"
)

// crashes is what a tool's Executor knows of the validator's crashes.
type crashes struct {
	proven  bool                 // a crash of this tool was proven
	byClass map[corpus.Class]int // proven crashes of each class
	notSent map[string]int       // cases not sent, by reason
}

// checkDraw is Check for the cases of one draw (the valid case first), sent as the crashes
// proven so far have it.
func (e *Executor) checkDraw(g validator.Gate, cs []corpus.Case) ([]validator.Verdict, []bool) {
	if !e.crash.proven {
		out, mutated := e.sendDraw(context.Background(), g, cs)
		e.recordCrashes(cs, out)
		return out, mutated
	}
	out := make([]validator.Verdict, len(cs))
	mutated := make([]bool, len(cs))
	send := make([]int, 0, len(cs))
	for i := range cs {
		if e.classSpent(cs[i]) {
			out[i] = validator.NotSent(notSentClass)
			continue
		}
		send = append(send, i)
	}
	if len(send) > 0 && cs[send[0]].Class == corpus.Valid {
		out[send[0]], mutated[send[0]] = e.lead(g, cs[send[0]])
		if out[send[0]].Fault == validator.Crash {
			e.dropRest(cs, out)
			send = nil
		} else {
			send = send[1:]
		}
	}
	e.sendAt(g, cs, send, out, mutated)
	e.recordCrashes(cs, out)
	return out, mutated
}

// sendDraw sends the cases of a draw of a tool with no proven crash, the valid case first: all
// together, or, for an isolator once the run has a proven crash, the valid case alone first.
// It reads nothing of e.crash (a draw in flight calls it); ctx ends its wait (checkCases).
func (e *Executor) sendDraw(ctx context.Context, g validator.Gate, cs []corpus.Case) ([]validator.Verdict, []bool) {
	_, iso := g.(validator.Isolator)
	if !iso || !e.deaths.anyCrash() || e.onlyReject || len(cs) < 2 || cs[0].Class != corpus.Valid {
		return e.checkCases(ctx, g, cs, true)
	}
	out := make([]validator.Verdict, len(cs))
	mutated := make([]bool, len(cs))
	out[0], mutated[0] = e.lead(g, cs[0])
	if out[0].Fault == validator.Crash {
		notSentAfterLead(out, nil)
		return out, mutated
	}
	vs, ms := e.checkCases(ctx, g, cs[1:], false)
	copy(out[1:], vs)
	copy(mutated[1:], ms)
	return out, mutated
}

// lead checks the valid case c of a draw once the tool has a proven crash. It runs alone (on a
// process of its own, validator.Isolator), so that a crash is proven by the one death it
// causes, as blame would prove it.
func (e *Executor) lead(g validator.Gate, c corpus.Case) (validator.Verdict, bool) {
	iso, ok := g.(validator.Isolator)
	if !ok || e.onlyReject {
		vs, ms := e.Check(g, []corpus.Case{c})
		return vs[0], ms[0]
	}
	v := iso.CheckAlone(context.Background(), c.Args)
	if v.Fault == validator.Crash {
		v = provenAlone(v)
	}
	return v, false
}

// provenAlone is the Crash verdict v of a call run alone: a crash of the call's own.
func provenAlone(v validator.Verdict) validator.Verdict {
	v.Detail = strings.TrimSpace(v.Detail + "\n(the call crashed the validator when run alone)")
	v.Death = 0 // a death of the process that ran it alone, not one the run counts
	return v
}

// afterLead is what checkDraw gives, once a crash is proven, for a draw whose valid case vs[0]
// crashed alone already: the valid case's crash, the rest not sent. ok is false when vs[0]
// is no such crash.
func (e *Executor) afterLead(cs []corpus.Case, vs []validator.Verdict) (out []validator.Verdict, ok bool) {
	if e.onlyReject || len(cs) == 0 || cs[0].Class != corpus.Valid ||
		vs[0].Fault != validator.Crash || vs[0].Death != 0 {
		return nil, false
	}
	out = make([]validator.Verdict, len(cs))
	out[0] = vs[0]
	e.dropRest(cs, out)
	e.recordCrashes(cs, out)
	return out, true
}

// notSentAfterLead gives every case of a draw after its valid case out[0], which crashed the
// validator alone, the verdict of a case not sent for that crash, and clears their mutated
// marks (nil: none). It reads nothing of the Executor (a draw in flight calls it).
func notSentAfterLead(out []validator.Verdict, mutated []bool) {
	for i := 1; i < len(out); i++ {
		out[i] = validator.NotSent(notSentAfterCrash)
	}
	if len(mutated) > 1 {
		clear(mutated[1:])
	}
}

// dropRest is notSentAfterLead for the draw cs once a crash is proven: a distortion of a class
// with maxClassCrashes proven crashes is not sent for its class's sake instead.
func (e *Executor) dropRest(cs []corpus.Case, out []validator.Verdict) {
	notSentAfterLead(out, nil)
	for i := 1; i < len(cs); i++ {
		if e.classSpent(cs[i]) {
			out[i] = validator.NotSent(notSentClass)
		}
	}
}

// classSpent says whether c is a distortion of a class that has maxClassCrashes proven crashes
// on this tool, so is sent no more.
func (e *Executor) classSpent(c corpus.Case) bool {
	return c.Class != corpus.Valid && e.crash.byClass[c.Class] >= maxClassCrashes
}

// sendAt sends the cases of cs at the indexes at, each verdict into out and mutated.
func (e *Executor) sendAt(g validator.Gate, cs []corpus.Case, at []int, out []validator.Verdict, mutated []bool) {
	if len(at) == 0 {
		return
	}
	sub := make([]corpus.Case, len(at))
	for j, i := range at {
		sub[j] = cs[i]
	}
	vs, ms := e.Check(g, sub)
	for j, i := range at {
		out[i], mutated[i] = vs[j], ms[j]
	}
}

// recordCrashes records the proven crashes among the verdicts vs of cs, and the cases not
// sent because of crashes.
func (e *Executor) recordCrashes(cs []corpus.Case, vs []validator.Verdict) {
	for i, v := range vs {
		switch {
		case v.Fault == validator.Crash:
			if e.crash.byClass == nil {
				e.crash.byClass = map[corpus.Class]int{}
			}
			e.crash.proven = true
			e.crash.byClass[cs[i].Class]++
			e.deaths.crashed()
		case v.NotSent && (v.Detail == notSentAfterCrash || v.Detail == notSentClass):
			if e.crash.notSent == nil {
				e.crash.notSent = map[string]int{}
			}
			e.crash.notSent[v.Detail]++
		}
	}
}

// notes says what was not sent and why.
func (c *crashes) notes() []string {
	var out []string
	for why, n := range c.notSent {
		out = append(out, fmt.Sprintf("%d cases not sent (%s)", n, why))
	}
	sort.Strings(out)
	return out
}
