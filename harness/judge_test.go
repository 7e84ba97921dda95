package harness

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
)

// The verdict rules, as a table over every combination: what the case expects, what the gate
// answered, the profile, the value it passed on, a planted canary, where its issues point, and
// whether a wrong location blocks. want below writes the rules out as the README states them;
// the literal rows after it pin the rules themselves.

type judgeRow struct {
	expect  string // accept, reject, either
	answer  string // valid, invalid, crash, timeout, protocol_error, unclear, refused, threw, notsent
	profile Profile
	value   string // "" (no value passed on), "equal", "different"
	canary  string // "" (none planted), "kept" (planted, not repeated), "leaked"
	precise bool   // the issues point at the distorted place
	reqLoc  bool
}

func (r judgeRow) String() string {
	return fmt.Sprintf("expect=%s answer=%s profile=%s value=%q canary=%q precise=%v require-location=%v",
		r.expect, r.answer, r.profile, r.value, r.canary, r.precise, r.reqLoc)
}

// outcome is what judge must return: kind, got and blocking of each finding, in order.
type outcome struct {
	kind     report.Kind
	got      string
	blocking bool
}

const judgeCanary = "tpc-5eed"

var judgeOriginal = map[string]any{"path": "a", "limit": json.Number("20")}

func (r judgeRow) inputs() (corpus.Case, validator.Verdict) {
	c := corpus.Case{Tool: "read", Class: "stringified_type", Expect: corpus.Expect(r.expect),
		Path: "/limit", Keyword: "type",
		Args: []byte(`{"path":"a","limit":"20"}`), Reason: "the number at /limit written as a string"}
	if r.canary != "" {
		c.Canary = judgeCanary
	}
	at := "/path" // a sibling: neither the place, nor above it, nor inside it
	if r.precise {
		at = "/limit"
	}
	msg := "must be an integer"
	if r.canary == "leaked" {
		msg = "got " + judgeCanary + ", must be an integer"
	}
	issues := []validator.Issue{{Path: at, Keyword: "type", Message: msg}}
	var v validator.Verdict
	switch r.answer {
	case "valid":
		v = validator.Verdict{Valid: true, Issues: issues}
	case "invalid":
		v = validator.Reject(issues...)
	case "unclear", "refused", "threw":
		v = validator.Unclear("the tool failed after it ran")
		v.Issues = issues
		v.ErrorAnswer = map[string]validator.ErrorAnswer{"refused": validator.Refused,
			"threw": validator.Threw}[r.answer]
	case "notsent":
		v = validator.NotSent("not JSON")
	default:
		v = validator.Failed(validator.Fault(r.answer), "it broke")
		v.Issues = issues
	}
	switch r.value {
	case "equal":
		v.Value, v.HasValue = map[string]any{"limit": json.Number("20"), "path": "a"}, true
	case "different":
		v.Value, v.HasValue = map[string]any{"limit": "20", "path": "a"}, true
	}
	return c, v
}

// want is the verdict rules.
func (r judgeRow) want() []outcome {
	switch r.answer {
	case "notsent":
		return nil // counted as not applicable, never judged
	case "crash", "timeout", "protocol_error":
		return []outcome{{report.Kind(r.answer), r.answer, true}} // no verdict: nothing else is judged
	}
	unclear := r.answer == "unclear" || r.answer == "refused" || r.answer == "threw"
	got := "unclear"
	if !unclear {
		got = map[string]string{"valid": "accepted", "invalid": "rejected"}[r.answer]
	}
	var out []outcome
	if r.canary == "leaked" && (!unclear || r.expect == "reject") {
		// a leak whatever the verdict, but for the tool's own words once the gate let a call
		// it may pass on through
		out = append(out, outcome{report.Leak, got, true})
	}
	if unclear {
		// A valid call owes a success: an error answer to it is a finding, shown as what it
		// reads as; any other unclear answer is counted apart, never a finding.
		switch {
		case r.expect == "accept" && r.answer == "refused":
			out = append(out, outcome{report.FalseReject, "rejected", true})
		case r.expect == "accept" && r.answer == "threw":
			out = append(out, outcome{report.GateError, "gate_error", true})
		}
		return out
	}
	valid := r.answer == "valid"
	switch r.expect {
	case "accept":
		switch {
		case !valid:
			out = append(out, outcome{report.FalseReject, got, true})
		case r.value == "different":
			out = append(out, outcome{report.SilentChange, got, true})
		}
	case "reject":
		switch {
		case valid && r.profile == Repair && r.value != "equal":
			out = append(out, outcome{report.WrongRepair, got, true}) // a repair must give back the original exactly
		case valid && r.profile == Strict:
			out = append(out, outcome{report.Missed, got, true})
		case !valid && !r.precise:
			out = append(out, outcome{report.ImpreciseLocation, got, r.reqLoc})
		}
	}
	return out // expect either: implementation-defined, only a fault or a leak counts
}

func allJudgeRows() []judgeRow {
	var rows []judgeRow
	for _, expect := range []string{"accept", "reject", "either"} {
		for _, answer := range []string{"valid", "invalid", "crash", "timeout", "protocol_error", "unclear",
			"refused", "threw", "notsent"} {
			for _, profile := range []Profile{Strict, Repair} {
				for _, value := range []string{"", "equal", "different"} {
					for _, canary := range []string{"", "kept", "leaked"} {
						for _, precise := range []bool{true, false} {
							for _, reqLoc := range []bool{false, true} {
								rows = append(rows, judgeRow{expect, answer, profile, value, canary, precise, reqLoc})
							}
						}
					}
				}
			}
		}
	}
	return rows
}

func runJudge(r judgeRow) ([]report.Finding, corpus.Case) {
	c, v := r.inputs()
	sealed := c.Seal()
	return judge(&c, basis{original: judgeOriginal}, v, rules{profile: r.profile, requireLocation: r.reqLoc}), sealed
}

func TestJudgeRules(t *testing.T) {
	rows := allJudgeRows()
	if len(rows) != 3*9*2*3*3*2*2 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		fs, sealed := runJudge(r)
		var got []outcome
		for _, f := range fs {
			got = append(got, outcome{f.Kind, f.Got, f.Blocking})
			// Every finding carries its case, sealed with its id.
			if f.ID == "" || f.ID != sealed.ID || f.Case.ID != sealed.ID || f.Tool != "read" ||
				f.Class != "stringified_type" ||
				string(f.Expect) != r.expect || f.Path != "/limit" || string(f.Args) != string(sealed.Args) {
				t.Errorf("%s: finding %s does not carry its case: %+v", r, f.Kind, f)
			}
		}
		want := r.want()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\n got  %v\n want %v", r, got, want)
		}
	}
}

// The rules themselves, row by row, with what each finding says.
func TestJudgeRulesLiteral(t *testing.T) {
	for _, c := range []struct {
		row    judgeRow
		kinds  string
		detail string // a part of the first finding's detail
	}{
		{judgeRow{expect: "accept", answer: "valid", profile: Strict, precise: true}, "[]", ""},
		{judgeRow{expect: "accept", answer: "valid", profile: Strict, value: "equal", precise: true}, "[]", ""},
		// The diff itself: a JSON line diff (diff.go), not Go syntax.
		{judgeRow{expect: "accept", answer: "valid", profile: Strict, value: "different", precise: true},
			"[silent_change]",
			"value passed on (-sent +passed on):\n  {\n-   \"limit\": 20,\n+   \"limit\": \"20\",\n    \"path\": " +
				"\"a\"\n  }\n"},
		{judgeRow{expect: "accept", answer: "invalid", profile: Strict, precise: true}, "[false_reject]", ""},
		{judgeRow{expect: "reject", answer: "valid", profile: Strict}, "[missed]", ""},
		{judgeRow{expect: "reject", answer: "valid", profile: Strict, value: "different"}, "[missed]",
			`passed on: {"limit":"20","path":"a"}`},
		{judgeRow{expect: "reject", answer: "valid", profile: Repair, value: "equal"}, "[]", ""},
		{judgeRow{expect: "reject", answer: "valid", profile: Repair}, "[wrong_repair]",
			"accepted without saying what it passes on"},
		{judgeRow{expect: "reject", answer: "valid", profile: Repair, value: "different"}, "[wrong_repair]",
			"-original +passed on"},
		{judgeRow{expect: "reject", answer: "invalid", profile: Strict, precise: true}, "[]", ""},
		{judgeRow{expect: "reject", answer: "invalid", profile: Strict}, "[imprecise_location]",
			`no issue at "/limit"`},
		{judgeRow{expect: "reject", answer: "invalid", profile: Strict, canary: "leaked", precise: true}, "[leak]",
			`repeats the argument value`},
		{judgeRow{expect: "reject", answer: "invalid", profile: Strict, canary: "kept", precise: true}, "[]", ""},
		{judgeRow{expect: "reject", answer: "unclear", profile: Strict, canary: "leaked"}, "[leak]", ""},
		{judgeRow{expect: "reject", answer: "unclear", profile: Strict, value: "different"}, "[]", ""},
		{judgeRow{expect: "either", answer: "valid", profile: Strict}, "[]", ""},
		{judgeRow{expect: "either", answer: "invalid", profile: Strict}, "[]", ""},
		{judgeRow{expect: "either", answer: "crash", profile: Strict}, "[crash]", "it broke"},
		{judgeRow{expect: "accept", answer: "timeout", profile: Strict, canary: "leaked"}, "[timeout]", "it broke"},
		{judgeRow{expect: "reject", answer: "notsent", profile: Strict, canary: "leaked"}, "[]", ""},
		// A valid call owes a success: an error answer is a finding with the answer's text.
		{judgeRow{expect: "accept", answer: "refused", profile: Strict}, "[false_reject]",
			"the tool failed after it ran"},
		{judgeRow{expect: "accept", answer: "threw", profile: Strict}, "[gate_error]", "the tool failed after it ran"},
		{judgeRow{expect: "accept", answer: "unclear", profile: Strict}, "[]", ""},
		{judgeRow{expect: "reject", answer: "threw", profile: Strict}, "[]", ""},
		{judgeRow{expect: "either", answer: "refused", profile: Strict}, "[]", ""},
	} {
		fs, _ := runJudge(c.row)
		var kinds []report.Kind
		for _, f := range fs {
			kinds = append(kinds, f.Kind)
		}
		if fmt.Sprint(kinds) != c.kinds && !(c.kinds == "[]" && len(kinds) == 0) {
			t.Errorf("%s: findings %v, want %s", c.row, kinds, c.kinds)
			continue
		}
		if c.detail != "" && !strings.Contains(fs[0].Detail, c.detail) {
			t.Errorf("%s: detail %q lacks %q", c.row, fs[0].Detail, c.detail)
		}
	}
}

// An issue locates a distortion at its place, inside it, or above it no higher than its scope
// (the object that lacks a key, the anyOf no branch fits); never beside it, and the root only
// when the scope reaches it. Beside it only at a place the oracle also finds invalid (Also), or
// above that no higher than its scope, never inside it.
func TestLocates(t *testing.T) {
	replicas := []corpus.Place{{Path: "/replicas", Scope: "/replicas"}}
	ticket := []corpus.Place{{Path: "/ticket", Scope: ""}}
	for _, c := range []struct {
		issue, path, scope string
		also               []corpus.Place
		want               bool
	}{
		{"/limit", "/limit", "/limit", nil, true},
		{"", "/limit", "/limit", nil, false},
		{"", "/limit", "", nil, true},
		{"/a", "/a/b/c", "/a", nil, true},
		{"/a", "/a/b/c", "/a/b", nil, false},
		{"/a/b", "/a/b/c", "/a", nil, true},
		{"/a/b/0", "/a/b", "/a/b", nil, true},
		{"/limitx", "/limit", "", nil, false},
		{"/limit", "/limitx", "", nil, false},
		{"/path", "/limit", "", nil, false},
		{"/x", "", "", nil, true},
		{"/replicas", "/environment", "", nil, false},
		{"/replicas", "/environment", "", replicas, true},
		{"/replicas/0", "/environment", "/environment", replicas, false},
		{"", "/environment", "/environment", replicas, false},
		{"/replicasx", "/environment", "/environment", replicas, false},
		{"/ticket", "/environment", "/environment", ticket, true},
		{"", "/environment", "/environment", ticket, true},
		{"/other", "/environment", "/environment", ticket, false},
	} {
		cs := corpus.Case{Path: c.path, Scope: c.scope, Also: c.also}
		if got := locates([]validator.Issue{{Path: c.issue}}, &cs); got != c.want {
			t.Errorf("issue at %q, distortion at %q up to %q, also %v: locates %v, want %v", c.issue, c.path,
				c.scope, c.also, got, c.want)
		}
	}
	if locates(nil, &corpus.Case{Path: "/limit"}) {
		t.Error("no issue locates a distortion")
	}
}

// A gate that parses numbers into doubles and passes on what it parsed changes nothing that
// RFC 8259 promises: 10000000000000000001 passed on as 1e19 is the same value.
func TestSameValueAsDoubles(t *testing.T) {
	c := corpus.Case{Tool: "t", Class: corpus.Valid, Expect: corpus.Accept, Args: []byte(`{"x":10000000000000000001}`)}
	original := map[string]any{"x": json.Number("10000000000000000001")}
	v := validator.AcceptValue(map[string]any{"x": json.Number("10000000000000000000")})
	if fs := judge(&c, basis{original: original}, v, rules{profile: Strict}); len(fs) != 0 {
		t.Errorf("findings for a value equal as doubles: %v", fs)
	}
	v = validator.AcceptValue(map[string]any{"x": json.Number("10000000000000002048")})
	if fs := judge(&c, basis{original: original}, v, rules{profile: Strict}); len(fs) != 1 ||
		fs[0].Kind != report.SilentChange {
		t.Errorf("a value that differs as doubles too: %v, want silent_change", fs)
	}
}

// TestErrorAnswerCounts: an error answer to a valid call is counted as its finding, not among the
// unclear answers; to a distorted call it is an unclear answer, as is any unclear answer that
// was no error.
func TestErrorAnswerCounts(t *testing.T) {
	for _, tc := range []struct {
		expect          corpus.Expect
		answer          validator.ErrorAnswer
		unclear, failed int
		kind            report.Kind
	}{
		{corpus.Accept, validator.Refused, 0, 1, report.FalseReject},
		{corpus.Accept, validator.Threw, 0, 1, report.GateError},
		{corpus.Accept, "", 1, 0, ""},
		{corpus.Reject, validator.Threw, 1, 0, ""},
	} {
		c := corpus.Case{Tool: "read", Class: "valid", Expect: tc.expect, Args: []byte(`{"path":"a"}`)}
		v := validator.Unclear("isError: Entity with name a not found")
		v.ErrorAnswer = tc.answer
		fs := judge(&c, basis{original: map[string]any{"path": "a"}}, v, rules{})
		st := statsFor(map[string]*report.ClassStats{}, c.Class)
		count(st, &c, v, fs)
		if st.Unclear != tc.unclear || st.Failed != tc.failed || tc.kind != "" && st.ByKind[tc.kind] != 1 {
			t.Errorf("%s answered %q: unclear %d, failed %d, by kind %v", tc.expect, tc.answer,
				st.Unclear, st.Failed, st.ByKind)
		}
		if tc.kind != "" && (len(fs) != 1 || fs[0].Detail != v.Detail) {
			t.Errorf("%s answered %q: findings %v, want one with the answer's text", tc.expect, tc.answer, fs)
		}
	}
}
