package harness

import (
	"fmt"
	"sort"

	"github.com/toolproof/toolproof/cases"
	"github.com/toolproof/toolproof/validator"
)

// A validator that dies on some input dies again and again on the cases that hold it: every
// distortion of a valid value that holds it, every case of a class that adds it. Each death
// costs a restart and a call run again alone to prove it, and the report would list the same
// cause in every class. So, per tool, once a crash is proven (blame runs every crash again
// alone, so a Crash verdict that comes back is one):
//   - each draw sends its valid case first, alone; when that crashes, the draw's distortions
//     are not sent;
//   - a class of distortions with maxClassCrashes proven crashes is sent no more cases (the
//     valid cases are always sent: they gate the rest).
// What is not sent is counted not applicable and in a note of the tool; every crash reported
// is still proven, on the call that causes it.

// maxClassCrashes is how many proven crashes of one tool and class end the sending of that
// class's cases.
const maxClassCrashes = 2

const (
	notSentAfterCrash = "not run: the validator crashes on the valid value this case distorts"
	notSentClass      = "not run: the validator crashes on this class"
)

// crashes is what a tool's runner knows of the validator's crashes.
type crashes struct {
	proven  bool                // a crash of this tool was proven
	byClass map[cases.Class]int // proven crashes of each class
	notSent map[string]int      // cases not sent, by reason
}

// checkDraw is runner.check for the cases of one draw (the valid case first).
func (r *runner) checkDraw(g validator.Gate, cs []cases.Case) ([]validator.Verdict, []bool) {
	out := make([]validator.Verdict, len(cs))
	mutated := make([]bool, len(cs))
	send := make([]int, 0, len(cs))
	for i := range cs {
		if cs[i].Class != cases.Valid && r.crash.byClass[cs[i].Class] >= maxClassCrashes {
			out[i] = r.skip(notSentClass)
			continue
		}
		send = append(send, i)
	}
	if r.crash.proven && len(send) > 1 && cs[send[0]].Class == cases.Valid {
		r.run(g, cs, send[:1], out, mutated)
		if out[send[0]].Fault == validator.Crash {
			for _, i := range send[1:] {
				out[i] = r.skip(notSentAfterCrash)
			}
			return out, mutated
		}
		send = send[1:]
	}
	r.run(g, cs, send, out, mutated)
	return out, mutated
}

// run sends the cases at indexes at and records the crashes among their verdicts.
func (r *runner) run(g validator.Gate, cs []cases.Case, at []int, out []validator.Verdict, mutated []bool) {
	if len(at) == 0 {
		return
	}
	sub := make([]cases.Case, len(at))
	for j, i := range at {
		sub[j] = cs[i]
	}
	vs, ms := r.check(g, sub)
	for j, i := range at {
		out[i], mutated[i] = vs[j], ms[j]
	}
	r.recordCrashes(sub, vs)
}

// recordCrashes records the proven crashes among the verdicts vs of cs.
func (r *runner) recordCrashes(cs []cases.Case, vs []validator.Verdict) {
	for i, v := range vs {
		if v.Fault == validator.Crash {
			if r.crash.byClass == nil {
				r.crash.byClass = map[cases.Class]int{}
			}
			r.crash.proven = true
			r.crash.byClass[cs[i].Class]++
		}
	}
}

func (r *runner) skip(why string) validator.Verdict {
	if r.crash.notSent == nil {
		r.crash.notSent = map[string]int{}
	}
	r.crash.notSent[why]++
	return validator.NotSent(why)
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
