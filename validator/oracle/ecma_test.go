package oracle_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// The oracle reads patterns as ECMA-262 does: every test of the JSON-Schema-Test-Suite's
// pattern files (testdata/suite: pattern, patternProperties, and the optional ECMA-262 regex
// and non-BMP regex tests) gets the suite's verdict, lookahead, backreferences and \p{...}
// among them.
func TestSuitePatterns(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "suite", "*.json"))
	if err != nil || len(files) != 4 {
		t.Fatalf("the suite's pattern files: %v %v", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var groups []struct {
			Description string
			Schema      json.RawMessage
			Tests       []struct {
				Description string
				Data        json.RawMessage
				Valid       bool
			}
		}
		if err := json.Unmarshal(data, &groups); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, g := range groups {
			gk, err := oracle.Compile(tool.Tool{Name: "suite", Parameters: g.Schema})
			if err != nil {
				t.Errorf("%s: %s: %v", filepath.Base(f), g.Description, err)
				continue
			}
			for _, tc := range g.Tests {
				v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(tc.Data)))
				if err != nil {
					t.Fatal(err)
				}
				if gk.Valid(v) != tc.Valid {
					t.Errorf("%s: %s: %s: valid %v, the suite says %v", filepath.Base(f), g.Description,
						tc.Description, !tc.Valid, tc.Valid)
				}
			}
		}
	}
}

// A pattern whose match backtracks without end (nested quantifiers on a long run) is bounded by
// the engine's own work (oracle.MaxBacktrack), not by a clock: past the bound it counts as a
// match, so the oracle never proves the value invalid by it, and the answer is the same every
// run.
func TestBacktrackingIsBounded(t *testing.T) {
	gk, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(
		`{"type":"object","properties":{"s":{"type":"string","pattern":"^(a|a)*$"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	long := map[string]any{"s": strings.Repeat("a", 200000) + "b"}
	for i := 0; i < 2; i++ {
		if !gk.Valid(long) {
			t.Errorf("run %d: a match beyond the bound proved the value invalid", i)
		}
	}
	if gk.Valid(map[string]any{"s": "aab"}) {
		t.Error("a short mismatch within the bound is accepted")
	}
}

// A pattern that is not ECMA-262 makes the tool unusable with a reason that names the pattern,
// where it is and why, not the metaschema.
func TestBadPatternIsNamed(t *testing.T) {
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"a":{"type":"string","pattern":"^(?P<x>a)$"}}}`: `pattern "^(?P<x>a)$" at ` +
			`/properties/a/pattern: not an ECMA-262 regular expression`,
		`{"type":"object","patternProperties":{"^\\pL$":{}}}`: `pattern "^\\pL$" at ` +
			`/patternProperties/^\pL$: not an ECMA-262 regular expression`,
	} {
		_, err := oracle.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "metaschema") {
			t.Errorf("%s: err = %v; want one with %q", schema, err, want)
		}
	}
}
