package harness

import (
	"fmt"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// judge turns one verdict into findings under the verdict rules, against the case's basis.
func judge(c *corpus.Case, b basis, v validator.Verdict, r rules) []report.Finding {
	original := b.original
	var out []report.Finding
	add := func(k report.Kind, got, detail string, blocking bool) {
		if c.ID == "" {
			*c = c.Seal()
		}
		out = append(out, report.Finding{Case: *c, Kind: k, Got: got, Detail: detail,
			Issues: reportIssues(v.Issues), Blocking: blocking})
	}
	if v.NotSent {
		return nil
	}
	if v.Fault != "" {
		add(faultKind(v.Fault), string(v.Fault), v.Detail, true)
		return out
	}
	got := "rejected"
	if v.Valid {
		got = "accepted"
	}
	if v.Unclear {
		got = "unclear"
	}
	// An unclear answer to a call the gate may pass on is the tool's own output once the gate
	// let it through ("Entity with name X not found"): what it repeats is the tool's business,
	// not the gate's message.
	if detail, ok := leaked(c, b, v); ok && !(v.Unclear && c.Expect != corpus.Reject) {
		add(report.Leak, got, detail, true)
	}
	if v.Unclear {
		if answeredInError(c, v) {
			kind, got := report.FalseReject, "rejected"
			if v.ErrorAnswer == validator.Threw {
				kind, got = report.GateError, string(validator.GateError)
			}
			add(kind, got, v.Detail, true)
		}
		return out // else counted apart, never a finding (but a gate's leak is still a leak)
	}
	switch c.Expect {
	case corpus.Accept:
		if !v.Valid {
			add(report.FalseReject, got, "", true)
		} else if v.HasValue && !sameValue(original, v.Value) {
			diff := "value passed on (-sent +passed on):\n" + valueDiff(original, v.Value)
			if b.defaults.only(original, v.Value) {
				add(report.DeclaredDefault, got, diff, r.blockDefaults) // the model was told of it
			} else {
				add(report.SilentChange, got, diff, true)
			}
		}
	case corpus.Reject:
		switch {
		case v.Valid && r.profile == Repair && !r.blind:
			if why := wrongRepair(b, v); why != "" {
				add(report.WrongRepair, got, why, true)
			}
		case v.Valid:
			detail := ""
			if v.HasValue {
				detail = "passed on: " + string(jsonvalue.MustMarshal(v.Value))
			}
			add(report.Missed, got, detail, true)
		case !locates(v.Issues, c):
			add(report.ImpreciseLocation, got,
				fmt.Sprintf("no issue at %q, inside it, or above it up to %q%s; issues: %s", c.Path, c.Scope,
					alsoText(c.Also), issuesText(v.Issues)), r.requireLocation)
		}
	}
	return out
}

// answeredInError reports whether an unclear answer is a finding: an error answer
// (validator.Verdict.ErrorAnswer) to a valid call, which owes a success. Unclear answers to
// other calls are counted apart.
func answeredInError(c *corpus.Case, v validator.Verdict) bool {
	return v.Unclear && v.ErrorAnswer != "" && c.Expect == corpus.Accept
}

// wrongRepair says why an accepted distortion is no repair ("" when it is one): a repair must
// pass on what the gate passes on for the original valid value (the original itself when that
// is not known).
func wrongRepair(b basis, v validator.Verdict) string {
	want, what := b.original, "original"
	if b.hasPassed {
		want, what = b.passed, "passed on for the original"
	}
	if !v.HasValue {
		return "accepted without saying what it passes on: the distorted value goes through"
	}
	if !sameValue(want, v.Value) {
		return "value passed on (-" + what + " +passed on):\n" + valueDiff(want, v.Value)
	}
	return ""
}

// sameValue reports whether a gate passed on the value it was given: equal exactly, or equal
// once every number is read as its nearest double (a gate that parses numbers into doubles
// passes on 1e19 for 10000000000000000001; RFC 8259 leaves that precision to it).
func sameValue(original, passed any) bool {
	if jsonvalue.Equal(original, passed) {
		return true
	}
	a, okA := jsonvalue.RoundBinary64(original)
	b, okB := jsonvalue.RoundBinary64(passed)
	return okA && okB && jsonvalue.Equal(a, b)
}

// locates reports whether some issue points at the distorted place (corpus.Case.Locates).
func locates(issues []validator.Issue, c *corpus.Case) bool {
	for _, is := range issues {
		if c.Locates(is.Path) {
			return true
		}
	}
	return false
}

// alsoText names the other places where an issue would have located a case.
func alsoText(also []corpus.Place) string {
	s := ""
	for _, p := range also {
		s += fmt.Sprintf(", or at %q up to %q", p.Path, p.Scope)
	}
	return s
}

// judgeAll is judge plus the mutated-input check.
func judgeAll(c *corpus.Case, b basis, v validator.Verdict, mutated bool, opts Options) []report.Finding {
	fs := judge(c, b, v, opts.rules())
	if mutated {
		if c.ID == "" {
			*c = c.Seal()
		}
		fs = append(fs, report.Finding{Case: *c, Kind: report.MutatedInput, Got: "changed its input",
			Detail: "the gate wrote into the argument bytes it was given", Blocking: true})
	}
	return fs
}
