package audit_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/audit"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

func places(t *testing.T, schema string) map[string]audit.Place {
	t.Helper()
	gk, err := validator.Compile(tool.Tool{Name: "t", Parameters: json.RawMessage(schema)})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]audit.Place{}
	for _, p := range audit.Tool(gk.Schema()) {
		out[string(p.Class)+" "+p.Path] = p
	}
	return out
}

// The audit says where the schema itself lets a distortion through, and where it catches it.
func TestAudit(t *testing.T) {
	got := places(t, `{
		"type": "object",
		"properties": {
			"options": {"type": "object", "properties": {"depth": {"type": "integer"}}},
			"count": {"type": ["integer", "string"]},
			"env": {"type": "string"},
			"mode": {"enum": ["dev", "prod"]},
			"tags": {"type": "array", "items": {"type": "string"}},
			"limit": {"type": "integer", "minimum": 1}
		},
		"required": ["env"],
		"additionalProperties": false
	}`)
	for key, passes := range map[string]bool{
		"hallucinated_key /options":       true,  // an open object
		"hallucinated_key ":               false, // the root is closed
		"stringified_type /count":         true,  // [integer, string]
		"stringified_type /limit":         false,
		"out_of_range_enum /env":          true, // a free string
		"out_of_range_enum /mode":         false,
		"out_of_range_enum /limit":        false,
		"flattened_array /tags":           false,
		"missing_required ":               false,
		"missing_required /options":       true, // requires nothing
		"wrapper_nesting ":                false,
		"null_value /env":                 false,
		"json_in_string /options":         false,
		"root_not_object ":                false,
		"malformed_json ":                 false,
		"stringified_type /options/depth": false,
	} {
		p, ok := got[key]
		if !ok {
			t.Errorf("no place %q; have %v", key, keys(got))
			continue
		}
		if p.Passes != passes {
			t.Errorf("%s: passes = %v, want %v (%s)", key, p.Passes, passes, p.Why)
		}
		if p.Why == "" {
			t.Errorf("%s: no reason", key)
		}
	}
}

// Alternatives are audited with the object they belong to: a oneOf branch that only says
// which property is required does not make /r open or untyped (the root is open: that passes).
func TestAuditAlternatives(t *testing.T) {
	got := places(t, `{"type":"object","properties":{"r":{"type":"object","properties":{"count":{"type":"integer"},"until":{"type":"string"}},"additionalProperties":false,"oneOf":[{"required":["count"]},{"required":["until"]}]}},"required":["r"]}`)
	for key, p := range got {
		if strings.HasPrefix(p.Path, "/r") && p.Passes && (p.Class == mutators.HallucinatedKey || p.Class == mutators.NullValue) {
			t.Errorf("%s passes: %s", key, p.Why)
		}
	}
}

func keys(m map[string]audit.Place) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
