package harness

import (
	"fmt"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/internal/execute"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// basis is what one case is judged against: the original valid value it was made from, what the
// gate passed on for that original (when it accepted it: a repair is judged against this, so a
// default the gate fills in both is no fault of the repair), and the defaults the tool's
// model-facing schema declares.
type basis struct {
	original  any
	passed    any  // with hasPassed: what the gate passed on for the original
	hasPassed bool // the gate accepted the original and said (or implied) what it passed on
	defaults  *declared
	schema    *schemaText // the tool's schema: what a message may repeat without leaking (leak.go)
}

// rules are the verdict rules of a run (from Options).
type rules struct {
	profile         Profile
	requireLocation bool
	blind           bool // the validator never says what it passes on: repairs cannot be judged
	blockDefaults   bool // declared_default fails the run
}

func (o Options) rules() rules {
	return rules{profile: o.profile(), requireLocation: o.RequireLocation, blind: o.blind,
		blockDefaults: o.DeclaredDefaultsBlock}
}

// blindNote is the report's note when the repair profile meets a validator.ValueBlind one.
const blindNote = "%s does not say what it passes on to the tool, so no repair can be judged: the repair profile " +
	"judges acceptance only (a distortion accepted is missed, as in strict)"

// withBlind marks opts for a validator.ValueBlind v in the repair profile and returns the note
// the report says it with ("" otherwise).
func withBlind(opts Options, v validator.Validator) (Options, string) {
	if _, ok := v.(validator.ValueBlind); !ok || opts.profile() != Repair {
		return opts, ""
	}
	opts.blind = true
	return opts, fmt.Sprintf(blindNote, v.Name())
}

// passedOn is what an accepting verdict passed on for input: its value, or the input itself when
// it said nothing (a gate that passes on its input unchanged); false when it did not accept.
func passedOn(v validator.Verdict, input any) (any, bool) {
	if !v.Valid || v.Fault != "" || v.Unclear || v.NotSent {
		return nil, false
	}
	if v.HasValue {
		return v.Value, true
	}
	return input, true
}

// drawBases is the basis of each case of one draw: cs[0] is the valid value the others distort
// (draw), so what the gate passed on for it is what a repair of each distortion must give.
func drawBases(p *prepared, cs []corpus.Case, originals []any, verdicts []validator.Verdict) []basis {
	out := make([]basis, len(cs))
	var passed any
	has := false
	if len(cs) > 0 && cs[0].Class == corpus.Valid && cs[0].Expect == corpus.Accept {
		passed, has = passedOn(verdicts[0], originals[0])
	}
	for i := range cs {
		out[i] = basis{original: originals[i], defaults: p.defaults, schema: p.schema}
		if i > 0 && has {
			out[i].passed, out[i].hasPassed = passed, true
		}
	}
	return out
}

// savedBases is the basis of each saved case: in the repair profile, the originals the
// must-reject cases were made from go to the gate too (once each), so that a repair is judged
// against what the gate passes on for its original.
func savedBases(p *prepared, r *execute.Executor, cs []corpus.Case, originals []any, opts Options) []basis {
	out := make([]basis, len(cs))
	for i := range cs {
		out[i] = basis{original: originals[i], defaults: p.defaults, schema: p.schema}
	}
	if opts.profile() != Repair || opts.blind {
		return out
	}
	at := map[string]int{} // original text -> index in send
	var send []corpus.Case
	var sentOriginals []any
	for _, c := range cs {
		if c.Expect != corpus.Reject || len(c.Original) == 0 {
			continue
		}
		if _, seen := at[string(c.Original)]; !seen {
			orig, err := jsonvalue.Parse(c.Original)
			if err != nil {
				continue
			}
			at[string(c.Original)] = len(send)
			send = append(send, corpus.Case{Tool: c.Tool, Args: c.Original, Expect: corpus.Accept, Class: corpus.Valid})
			sentOriginals = append(sentOriginals, orig)
		}
	}
	if len(send) == 0 {
		return out
	}
	verdicts, _ := r.CheckAll(p.gate, send)
	for i, c := range cs {
		j, ok := at[string(c.Original)]
		if !ok || c.Expect != corpus.Reject {
			continue
		}
		out[i].passed, out[i].hasPassed = passedOn(verdicts[j], sentOriginals[j])
	}
	return out
}
