package audit_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/audit"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

func compile(t *testing.T, schema string) *oracle.Gatekeeper {
	t.Helper()
	gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
	if err != nil {
		t.Fatal(err)
	}
	return gk
}

// run audits the schema, re-checks every witness against the oracle (so a test fails if the
// audit ever states what the oracle does not confirm) and returns the places by "class path".
func run(t *testing.T, schema string) (audit.Report, map[string]audit.Place) {
	t.Helper()
	gk := compile(t, schema)
	rep := audit.Tool(gk, audit.Options{})
	for _, err := range lies(gk, rep) {
		t.Error(err)
	}
	out := map[string]audit.Place{}
	for _, p := range rep.Places {
		key := string(p.Class) + " " + p.Path
		if _, dup := out[key]; dup {
			t.Errorf("two places %q", key)
		}
		out[key] = p
	}
	return rep, out
}

// lies re-judges every witness of rep with the oracle and returns what does not hold: a passes
// claim whose argument text the oracle rejects, a caught claim whose text it accepts, a claim
// without a witness, a not_determined place with one.
func lies(gk *oracle.Gatekeeper, rep audit.Report) []error {
	var out []error
	accepts := func(w *audit.Witness) bool { _, err := gk.Parse([]byte(w.Args)); return err == nil }
	for _, p := range rep.Places {
		at := fmt.Sprintf("%s at %q (%s)", p.Class, p.Path, p.Status)
		switch p.Status {
		case audit.Passes:
			if p.Witness == nil {
				out = append(out, fmt.Errorf("%s: no witness", at))
				continue
			}
			if !accepts(p.Witness) {
				out = append(out, fmt.Errorf("%s: the oracle rejects the witness %s", at, p.Witness.Args))
			}
			if p.Rejected != nil && accepts(p.Rejected) {
				out = append(out, fmt.Errorf("%s: the oracle accepts the rejected witness %s", at, p.Rejected.Args))
			}
			// The place touched is in the text (a key left out or renamed is not).
			v, err := jsonvalue.Parse([]byte(p.Witness.Args))
			def, _ := mutators.Default().Lookup(p.Class)
			if _, ok := jsonvalue.Get(v, p.Witness.Path); err == nil && !ok && !def.Audit.LeavesOut {
				out = append(out, fmt.Errorf("%s: the witness has nothing at %s: %s", at,
					p.Witness.Path, p.Witness.Args))
			}
		case audit.Caught:
			if p.Witness == nil {
				out = append(out, fmt.Errorf("%s: no witness", at))
				continue
			}
			if accepts(p.Witness) {
				out = append(out, fmt.Errorf("%s: the oracle accepts the witness %s", at, p.Witness.Args))
			}
			if p.Witness.Issue == "" {
				out = append(out, fmt.Errorf("%s: the witness does not say what the oracle rejected", at))
			}
		case audit.NotDetermined:
			if p.Witness != nil {
				out = append(out, fmt.Errorf("%s: a witness for a verdict not made", at))
			}
		default:
			out = append(out, fmt.Errorf("%s: unknown verdict", at))
		}
		if p.Why == "" {
			out = append(out, fmt.Errorf("%s: no reason", at))
		}
	}
	return out
}

// The re-check catches a lying audit: a report that swaps the verdicts of the real one.
func TestLiesFindsALie(t *testing.T) {
	gk := compile(t, `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],`+
		`"additionalProperties":false}`)
	rep := audit.Tool(gk, audit.Options{})
	if errs := lies(gk, rep); len(errs) > 0 {
		t.Fatalf("the real report: %v", errs)
	}
	swapped := 0
	for i, p := range rep.Places {
		switch p.Status {
		case audit.Caught:
			rep.Places[i].Status = audit.Passes
			swapped++
		case audit.Passes:
			rep.Places[i].Status = audit.Caught
			swapped++
		}
	}
	if swapped == 0 {
		t.Fatal("nothing to swap")
	}
	if errs := lies(gk, rep); len(errs) < swapped {
		t.Errorf("%d verdicts swapped, %d lies found: %v", swapped, len(errs), errs)
	}
}

// The case from issue 8: a property typed ["null","string"] whose enum lists null. A null
// written as the string "null" is not in the enum, and no number or boolean is allowed there,
// so no stringified value passes.
func TestEnumWithNullDoesNotPassStringified(t *testing.T) {
	_, got := run(t, `{"type":"object","properties":{"priority":{"type":["null","string"],"enum":["low","normal",`+
		`"high",null]}},"required":["priority"],"additionalProperties":false}`)
	p, ok := got["stringified_type /priority"]
	if !ok {
		t.Fatalf("no stringified_type place at /priority: %v", keys(got))
	}
	if p.Status == audit.Passes {
		t.Errorf("stringified_type passes at /priority: %s (%+v)", p.Why, p.Witness)
	}
	if p.Status == audit.Caught && !strings.Contains(p.Witness.Args, `"priority":"null"`) {
		t.Errorf("caught, but the witness is not the null stringified: %s", p.Witness.Args)
	}
	// null itself passes: the enum lists it.
	if n := got["null_value /priority"]; n.Status != audit.Passes {
		t.Errorf("null_value at /priority: %s, want passes", n.Status)
	}
}

// An open object lets an invented key through: the witness holds the key, and the oracle
// accepts it. A closed one rejects it, and its witness says where.
func TestHallucinatedKeyWitnesses(t *testing.T) {
	_, open := run(t, `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)
	p := open["hallucinated_key "]
	if p.Status != audit.Passes || p.Witness == nil {
		t.Fatalf("open object: %+v, want passes with a witness", p)
	}
	gk := compile(t, `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)
	args, err := gk.Parse([]byte(p.Witness.Args))
	if err != nil {
		t.Fatalf("the oracle rejects the witness %s: %v", p.Witness.Args, err)
	}
	key := strings.TrimPrefix(p.Witness.Path, "/")
	if _, ok := args[key]; !ok || key == "q" {
		t.Errorf("the witness %s does not hold the invented key %q", p.Witness.Args, key)
	}

	_, closed := run(t, `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],`+
		`"additionalProperties":false}`)
	c := closed["hallucinated_key "]
	if c.Status != audit.Caught || c.Witness == nil {
		t.Fatalf("closed object: %+v, want caught with a witness", c)
	}
	if c.Witness.Keyword != "additionalProperties" && c.Witness.Keyword != "false" {
		t.Errorf("closed object: rejected for %q (%s), want additionalProperties", c.Witness.Keyword, c.Witness.Issue)
	}
	if !strings.Contains(c.Why, "closed") {
		t.Errorf("closed object: why = %q", c.Why)
	}
}

func TestUnsatisfiableTool(t *testing.T) {
	rep, _ := run(t, `{"type":"object","properties":{"a":{"type":"string","minLength":5,"maxLength":2}},`+
		`"required":["a"]}`)
	if rep.Unsatisfiable == "" {
		t.Fatalf("not reported unsatisfiable: %+v", rep)
	}
	if !strings.Contains(rep.Unsatisfiable, "/a") {
		t.Errorf("the reason does not say where: %q", rep.Unsatisfiable)
	}
	if len(rep.Places) != 0 {
		t.Errorf("an unsatisfiable tool has places: %v", rep.Places)
	}
	// A satisfiable tool is not.
	rep, _ = run(t, `{"type":"object","properties":{"a":{"type":"string","minLength":2,"maxLength":5}}}`)
	if rep.Unsatisfiable != "" {
		t.Errorf("satisfiable tool reported unsatisfiable: %s", rep.Unsatisfiable)
	}
}

// Where every distortion built is invalid only because format is asserted (an annotation in
// draft 2020-12), nothing is claimed.
func TestFormatOnlyIsNotDetermined(t *testing.T) {
	_, got := run(t, `{"type":"object","properties":{"when":{"type":"string","format":"date-time"}},`+
		`"required":["when"],"additionalProperties":false}`)
	p := got["out_of_range_enum /when"]
	if p.Status != audit.NotDetermined {
		t.Errorf("out_of_range_enum at /when: %s (%s), want not_determined", p.Status, p.Why)
	}
	if !strings.Contains(p.Why, "format") {
		t.Errorf("the reason does not name format: %q", p.Why)
	}
}

// The audit says where the schema itself lets a distortion through, and where it catches it.
func TestAudit(t *testing.T) {
	_, got := run(t, `{
		"type": "object",
		"properties": {
			"options": {"type": "object", "properties": {"depth": {"type": "integer"}}},
			"count": {"type": ["integer", "string"]},
			"env": {"type": "string"},
			"mode": {"enum": ["dev", "prod"]},
			"tags": {"type": "array", "items": {"type": "string"}},
			"limit": {"type": "integer", "minimum": 1}
		},
		"required": ["env", "options", "count", "mode", "tags", "limit"],
		"additionalProperties": false
	}`)
	for key, want := range map[string]audit.Status{
		"hallucinated_key /options":       audit.Passes, // an open object
		"hallucinated_key ":               audit.Caught, // the root is closed
		"stringified_type /count":         audit.Passes, // [integer, string]
		"stringified_type /limit":         audit.Caught,
		"out_of_range_enum /env":          audit.Passes, // a free string
		"out_of_range_enum /mode":         audit.Caught,
		"out_of_range_enum /limit":        audit.Caught,
		"flattened_array /tags":           audit.Caught,
		"missing_required ":               audit.Caught,
		"wrapper_nesting ":                audit.Caught,
		"null_value /env":                 audit.Caught,
		"json_in_string /options":         audit.Caught,
		"root_not_object ":                audit.Caught,
		"malformed_json ":                 audit.Caught,
		"stringified_type /options/depth": audit.Caught,
	} {
		p, ok := got[key]
		if !ok {
			t.Errorf("no place %q; have %v", key, keys(got))
			continue
		}
		if p.Status != want {
			t.Errorf("%s: %s, want %s (%s)", key, p.Status, want, p.Why)
		}
	}
}

// Alternatives are audited with the object they belong to: a oneOf branch that only says
// which property is required does not make /r open or untyped.
func TestAuditAlternatives(t *testing.T) {
	_, got := run(t, `{"type":"object","properties":{"r":{"type":"object","properties":{"count":{"type":"integer"},`+
		`"until":{"type":"string"}},"additionalProperties":false,"oneOf":[{"required":["count"]},`+
		`{"required":["until"]}]}},"required":["r"]}`)
	for key, p := range got {
		if strings.HasPrefix(p.Path, "/r") && p.Status == audit.Passes &&
			(p.Class == mutators.HallucinatedKey || p.Class == mutators.NullValue) {
			t.Errorf("%s passes: %s", key, p.Why)
		}
	}
	if p := got["missing_required /r"]; p.Status != audit.Caught {
		t.Errorf("missing_required at /r: %s (%s), want caught", p.Status, p.Why)
	}
}

// A property required only under a condition is not a missing_required distortion where the
// condition does not hold: leaving it out there proves nothing.
func TestConditionalRequiredIsNoPass(t *testing.T) {
	_, got := run(t, `{"type":"object","properties":{"env":{"enum":["dev","prod"]},"ticket":{"type":"string"}},"required":["env"],
		"if":{"properties":{"env":{"const":"prod"}}},"then":{"required":["ticket"]},"additionalProperties":false}`)
	if p := got["missing_required "]; p.Status != audit.Caught {
		t.Errorf("missing_required at the root: %s (%s), want caught", p.Status, p.Why)
	}
}

// Over the embedded corpus (39 tools nobody wrote for this test), every claim holds up when
// the oracle re-judges its witness.
func TestEmbeddedCorpusTellsTheTruth(t *testing.T) {
	set := sample.Tools()
	sib := mutators.SiblingsOf(set.Tools)
	count := map[audit.Status]int{}
	for _, tl := range set.Tools {
		gk, err := oracle.Compile(tl)
		if err != nil {
			t.Fatal(err)
		}
		rep := audit.Tool(gk, audit.Options{Siblings: sib, Values: 6})
		for _, err := range lies(gk, rep) {
			t.Errorf("%s: %v", tl.Name, err)
		}
		for _, p := range rep.Places {
			count[p.Status]++
		}
	}
	if count[audit.Passes] == 0 || count[audit.Caught] == 0 {
		t.Errorf("verdicts over the corpus: %v", count)
	}
	t.Logf("verdicts over the corpus: %v", count)
}

// Same tool, same report.
func TestDeterministic(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":["integer","string"]},"b":{"type":"array",` +
		`"items":{"enum":["x","y"]}},"c":{"type":"object"}},"required":["a"]}`
	a := audit.Tool(compile(t, schema), audit.Options{})
	b := audit.Tool(compile(t, schema), audit.Options{})
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("two audits of one tool differ (-first +second):\n%s", d)
	}
}

func keys(m map[string]audit.Place) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// wideSchema is an object of n required properties of three types.
func wideSchema(n int) string {
	props := make([]string, n)
	names := make([]string, n)
	for i := range props {
		names[i] = fmt.Sprintf(`"p%d"`, i)
		props[i] = fmt.Sprintf(`"p%d":{"type":%q}`, i, []string{"string", "integer", "boolean"}[i%3])
	}
	return `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` +
		strings.Join(names, ",") + `]}`
}

// TestBudget: a tool whose audit needs more oracle work than its budget stops with the reason
// and no places; the same audit with room enough ends with every place, and the same budget
// gives the same report twice.
func TestBudget(t *testing.T) {
	gk := compile(t, wideSchema(30))
	full := audit.Tool(gk, audit.Options{})
	if full.OverBudget != "" || len(full.Places) == 0 {
		t.Fatalf("default budget: over budget %q, %d places", full.OverBudget, len(full.Places))
	}
	small := audit.Tool(gk, audit.Options{Budget: 20000})
	if !strings.Contains(small.OverBudget, "audit.MaxOracleBytes") || len(small.Places) != 0 {
		t.Fatalf("budget 20000: over budget %q, %d places", small.OverBudget, len(small.Places))
	}
	if again := audit.Tool(gk, audit.Options{Budget: 20000}); !cmp.Equal(small, again) {
		t.Errorf("the same budget gave two reports:\n%s", cmp.Diff(small, again))
	}
}

// TestWideToolFitsTheBudget: a place tries the samples only while its distortions come to less
// than audit.PlaceBytes, so a tool of 300 required properties (samples of about 4 KB) is audited
// whole within the default budget, every witness confirmed by the oracle, where trying every
// sample at every place would need more than the budget.
func TestWideToolFitsTheBudget(t *testing.T) {
	gk := compile(t, wideSchema(300))
	rep := audit.Tool(gk, audit.Options{})
	if rep.OverBudget != "" || len(rep.Places) < 300 {
		t.Fatalf("over budget %q, %d places", rep.OverBudget, len(rep.Places))
	}
	for _, err := range lies(gk, rep) {
		t.Error(err)
	}
}
