package harness_test

// Verdicts a team can trust: a repair judged against what the gate passes on for the original, a
// default the model was told of reported apart, a validator that cannot say what it passes on
// judged on acceptance only, a gate's own exception named gate_error in every table and list.

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// stateTool declares a default the model is told of.
var stateTool = tool.Tool{Name: "list", Parameters: json.RawMessage(`{"type":"object","properties":{` +
	`"n":{"type":"integer","minimum":0,"maximum":1000},` +
	`"state":{"type":"string","enum":["open","closed"],"default":"open"}},` +
	`"required":["n"],"additionalProperties":false}`)}

// filling is a gate that turns a string of digits for n into the number and fills state with
// fill when it is absent, then validates strictly and passes on what it made.
func filling(fill string) validator.Validator {
	return wrapRef("filling-"+fill, nil, func(v any) any {
		m, ok := v.(map[string]any)
		if !ok {
			return v // the reference rejects it
		}
		out := map[string]any{}
		for k, x := range m {
			out[k] = x
		}
		if s, ok := out["n"].(string); ok && s != "" && strings.Trim(s, "0123456789") == "" {
			out["n"] = json.Number(s)
		}
		if _, ok := out["state"]; !ok {
			out["state"] = fill
		}
		return out
	})
}

func kinds(rep *report.Report) map[report.Kind]bool {
	out := map[report.Kind]bool{}
	for _, f := range rep.Findings {
		out[f.Kind] = true
	}
	return out
}

func runOn(t *testing.T, v validator.Validator, opts harness.Options) *report.Report {
	t.Helper()
	opts.Checks, opts.Seed = 60, 1
	if opts.Mutators == nil {
		ms, err := mutators.Select("stringified_type")
		if err != nil {
			t.Fatal(err)
		}
		opts.Mutators = ms
	}
	rep, err := harness.Run([]tool.Tool{stateTool}, v, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// "5" -> 5 repaired exactly is no wrong_repair when the gate also fills a default: it fills the
// same default for the original.
func TestRepairJudgedAgainstWhatTheOriginalPassesOn(t *testing.T) {
	rep := runOn(t, filling("open"), harness.Options{Profile: harness.Repair})
	if k := kinds(rep); k[report.WrongRepair] {
		t.Errorf("wrong_repair for an exact repair beside a default filled in both: %v", rep.Findings)
	}
	if st := rep.Classes["stringified_type"]; st == nil || st.Cases == 0 {
		t.Fatal("no stringified_type case was sent")
	}
}

// A default the model-facing schema declares, filled in, is declared_default (reported, not
// blocking; blocking with DeclaredDefaultsBlock); any other value filled in is a silent_change.
func TestDeclaredDefaultApart(t *testing.T) {
	// The repair profile, so that the exact repairs of "5" -> 5 are no finding either.
	rep := runOn(t, filling("open"), harness.Options{Profile: harness.Repair})
	if k := kinds(rep); !k[report.DeclaredDefault] || k[report.SilentChange] || !rep.Passed {
		t.Errorf("declared default filled in: kinds %v, passed %v; want a non-blocking declared_default only",
			k, rep.Passed)
	}
	rep = runOn(t, filling("open"), harness.Options{Profile: harness.Repair, DeclaredDefaultsBlock: true})
	if rep.Passed {
		t.Error("DeclaredDefaultsBlock: the run passed")
	}
	rep = runOn(t, filling("closed"), harness.Options{Profile: harness.Repair})
	if k := kinds(rep); !k[report.SilentChange] || k[report.DeclaredDefault] {
		t.Errorf("a value the schema does not declare filled in: kinds %v, want silent_change", k)
	}
}

// blindGate accepts every call without saying what it passes on.
type blindGate struct{}

func (blindGate) Check(context.Context, []byte) validator.Verdict { return validator.Accept() }

type blind struct{ valueBlind bool }

func (b blind) Name() string                              { return "accepts-all" }
func (b blind) Compile(tool.Tool) (validator.Gate, error) { return blindGate{}, nil }

type blindMarked struct{ blind }

func (blindMarked) ValueBlind() {}

// A validator that cannot say what it passes on (validator.ValueBlind, as mcp: is) gets no
// wrong_repair claim in the repair profile: it is judged on acceptance, and the report says so once.
func TestRepairProfileOnAValueBlindValidator(t *testing.T) {
	rep := runOn(t, blindMarked{}, harness.Options{Profile: harness.Repair})
	k := kinds(rep)
	if k[report.WrongRepair] || !k[report.Missed] {
		t.Errorf("value-blind validator, repair: kinds %v, want missed and no wrong_repair", k)
	}
	n := 0
	for _, note := range rep.Notes {
		if strings.Contains(note, "judges acceptance only") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("notes %q: want the acceptance-only note once", rep.Notes)
	}
	if k := kinds(runOn(t, blind{}, harness.Options{Profile: harness.Repair})); !k[report.WrongRepair] {
		t.Errorf("a validator that may say what it passes on, silent: kinds %v, want wrong_repair", k)
	}
}

// throwing is a gate whose library throws on a distorted n: a gate_error, not a crash.
type throwing struct{}

func (throwing) Name() string { return "throws" }
func (throwing) Compile(t tool.Tool) (validator.Gate, error) {
	g, err := oracle.Reference{}.Compile(t)
	return throwingGate{g}, err
}

type throwingGate struct{ ref validator.Gate }

func (g throwingGate) Check(ctx context.Context, args []byte) validator.Verdict {
	if bytes.Contains(args, []byte(`"n":"`)) {
		return validator.Failed(validator.GateError,
			"RangeError: Maximum call stack size exceeded\nat walk (lib.js:12:3)")
	}
	return g.ref.Check(ctx, args)
}

// A gate's own exception is gate_error in the findings, the report's tables and the comparison,
// with its message and stack; never "crash".
func TestGateErrorNamedAlike(t *testing.T) {
	rep := runOn(t, throwing{}, harness.Options{})
	var f *report.Finding
	for i := range rep.Findings {
		if rep.Findings[i].Kind == report.GateError {
			f = &rep.Findings[i]
		}
	}
	if f == nil || !f.Blocking || !strings.Contains(f.Detail, "RangeError") ||
		!strings.Contains(f.Detail, "at walk (lib.js:12:3)") {
		t.Fatalf("no blocking gate_error finding with the message and stack: %v", rep.Findings)
	}
	cmp := report.Comparison{Reports: []*report.Report{rep, runOn(t, filling("open"), harness.Options{})}}
	for _, format := range []string{"text", "markdown"} {
		var single, both bytes.Buffer
		if err := rep.Write(&single, format); err != nil {
			t.Fatal(err)
		}
		if err := cmp.Write(&both, format); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]string{"report": single.String(), "comparison": both.String()} {
			if !strings.Contains(out, "gate_error") || strings.Contains(out, "crash") {
				t.Errorf("%s %s: want gate_error named and no crash:\n%s", format, name, out)
			}
		}
	}
}

// Numbers equal as JSON numbers are equal in a diff: 1.0 passed on as 1 is no change.
func TestDiffNumbersEqualAsJSON(t *testing.T) {
	gate := validator.Func("ones", func(tool.Tool) (func([]byte) (any, error), error) {
		return func(args []byte) (any, error) {
			return map[string]any{"n": json.Number("1"), "state": "closed"}, nil
		}, nil
	})
	c := []byte(`{"n":1.0,"state":"open"}`)
	rep, err := harness.Replay([]corpus.Case{{Tool: "list", Expect: "accept", Class: "valid", Args: c}},
		[]tool.Tool{stateTool}, gate, harness.Options{})
	if err != nil || len(rep.Findings) != 1 {
		t.Fatalf("findings %v, %v", rep.Findings, err)
	}
	d := rep.Findings[0].Detail
	if strings.Contains(d, `-   "n": 1.0`) || strings.Contains(d, `+   "n": 1`) ||
		!strings.Contains(d, `+   "state": "closed"`) {
		t.Errorf("diff shows 1.0 -> 1 as a change, or misses the real one:\n%s", d)
	}
}

// Replayed cases are judged the same way: the original a saved distortion was made from goes to
// the gate too, and the repair is compared with what the gate passes on for it.
func TestReplayRepairJudgedAgainstWhatTheOriginalPassesOn(t *testing.T) {
	c := corpus.Case{Tool: "list", Expect: "reject", Class: "stringified_type", Path: "/n",
		Args: []byte(`{"n":"5"}`), Original: []byte(`{"n":5}`)}
	rep, err := harness.Replay([]corpus.Case{c}, []tool.Tool{stateTool}, filling("open"),
		harness.Options{Profile: harness.Repair})
	if err != nil || rep.Cases != 1 {
		t.Fatalf("replay: %d cases, %v", rep.Cases, err)
	}
	if len(rep.Findings) != 0 {
		t.Errorf("an exact repair beside a default filled in both: findings %v", rep.Findings)
	}
	c.Args = []byte(`{"n":"6"}`)
	if rep, _ := harness.Replay([]corpus.Case{c}, []tool.Tool{stateTool}, filling("open"),
		harness.Options{Profile: harness.Repair}); len(rep.Findings) != 1 ||
		rep.Findings[0].Kind != report.WrongRepair {
		t.Errorf(`"6" for an original 5: findings %v, want wrong_repair`, rep.Findings)
	}
}
