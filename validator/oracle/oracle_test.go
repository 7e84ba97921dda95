package oracle_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/audit"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// readingsTool needs every reading: a format (the lax reading), a multipleOf that doubles
// divide otherwise (the doubles and division readings) and an integer beyond a double (the mixed
// and serde_json readings; serde_json's is the mixed one here, as the integer fits a uint64).
var readingsTool = tool.Tool{Name: "order", Parameters: json.RawMessage(`{"type":"object",` +
	`"properties":{"when":{"type":"string","format":"date"},"price":{"type":"number","multipleOf":0.01,` +
	`"maximum":1000},` +
	`"id":{"type":"integer","minimum":1,"maximum":12345678901234567890},"tags":{"type":"array",` +
	`"items":{"type":"string","maxLength":5}}},` +
	`"required":["when","price"],"additionalProperties":false}`)}

var plainTool = tool.Tool{Name: "plain",
	Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}

// checkOnce fails when some reading was compiled more than once, or a tool's exact reading not
// exactly once, and returns how many readings each tool had compiled.
func checkOnce(t *testing.T, counts map[string]int, tools ...tool.Tool) map[string]int {
	t.Helper()
	per := map[string]int{}
	for k, n := range counts {
		if n != 1 {
			t.Errorf("compiled %d times: %s", n, k)
		}
		name, _, _ := strings.Cut(k, " ")
		per[name]++
	}
	for _, tl := range tools {
		exact := tl.Name + " " + string(tl.Parameters) + " lax=false"
		if counts[exact] != 1 {
			t.Errorf("%s: the exact reading compiled %d times, want 1", tl.Name, counts[exact])
		}
	}
	return per
}

// A run compiles each tool once per reading it needs: the oracle, the generator, the mutators
// and the reference gate share one Gatekeeper and its Oracle.
func TestRunCompilesEachReadingOnce(t *testing.T) {
	counts, stop := oracle.CountCompiles()
	defer stop()
	tools := []tool.Tool{readingsTool, plainTool}
	if _, err := harness.Run(tools, oracle.Reference{}, harness.Options{Checks: 40, Seed: 1, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	per := checkOnce(t, counts(), tools...)
	t.Logf("%v", per)
	if per["plain"] != 1 {
		t.Errorf("plain: %d compiles, want 1 (it needs no other reading)", per["plain"])
	}
	// exact, lax, as doubles, mixed (= serde_json), and the division readings.
	if per["order"] < 5 {
		t.Errorf("order: %d readings compiled, want at least 5: the test no longer reaches them (%v)",
			per["order"], counts())
	}
}

// The audit and the mutators it runs share the oracle's lax reading.
func TestAuditCompilesEachReadingOnce(t *testing.T) {
	counts, stop := oracle.CountCompiles()
	defer stop()
	gk, err := oracle.Compile(readingsTool)
	if err != nil {
		t.Fatal(err)
	}
	audit.Tool(gk, audit.Options{Values: 4})
	got := counts()
	checkOnce(t, got, readingsTool)
	lax := slices.ContainsFunc(slices.Collect(maps.Keys(got)),
		func(k string) bool { return strings.HasSuffix(k, "lax=true") })
	if !lax {
		t.Errorf("the audit compiled no lax reading (%v): the test no longer reaches it", got)
	}
}

// The readings are made once per Gatekeeper, whoever asks.
func TestOracleIsShared(t *testing.T) {
	gk, err := oracle.Compile(readingsTool)
	if err != nil {
		t.Fatal(err)
	}
	if gk.Oracle() != gk.Oracle() || gk.Oracle().Gatekeeper() != gk {
		t.Error("Gatekeeper.Oracle is not one oracle of that gatekeeper")
	}
	if mutators.NewContext(gk, nil).Oracle() != gk {
		t.Error("the mutators judge with another gatekeeper")
	}
	if gk.Oracle().Lax() != gk.Oracle().Lax() || gk.Oracle().Lax() == nil {
		t.Error("the lax reading is not compiled once")
	}
}

// The readings share one parse of the tool's parameters: the division readings mark their
// multipleOf on a copy of it, so a reading made after them (here the mixed one, for a big
// integer) reads the schema as written.
func TestDivisionMarksStayInTheirReadings(t *testing.T) {
	counts, stop := oracle.CountCompiles()
	defer stop()
	gk, err := oracle.Compile(tool.Tool{Name: "marks", Parameters: json.RawMessage(`{"type":"object",` +
		`"properties":{"price":{"type":"number","multipleOf":0.5,"maximum":0.1},"n":{"type":"integer"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	o := gk.Oracle()
	for _, args := range []string{`{"price":1.5}`, `{"n":123456789012345678901}`} {
		var v any
		d := json.NewDecoder(strings.NewReader(args))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		o.DoublesDiffer(v, nil, o.Causes(v))
	}
	got := counts()
	division, mixed := 0, 0
	for k := range got {
		switch {
		case strings.Contains(k, " float("):
			division++
		case strings.Contains(k, oracle.FloatMultipleOf):
			t.Errorf("a reading without float division holds the division readings' marks: %s", k)
		case strings.Contains(k, "0.1000000000000000055511151231257827021181583404541015625"):
			mixed++
		}
	}
	if division == 0 || mixed == 0 {
		t.Errorf("the test no longer reaches a division reading (%d) and a reading after it (%d): %v",
			division, mixed, got)
	}
	checkOnce(t, got)
}
