package mutators_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/audit"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// weather has three required keys in three naming styles, and no other.
var weather = tool.Tool{Name: "weather", Parameters: json.RawMessage(`{"type":"object",
	"properties":{"city":{"type":"string"},"file_name":{"type":"string"},"repoName":{"type":"string"}},
	"required":["city","file_name","repoName"],"additionalProperties":false}`)}

// TestMisnamedKeyDrawsCaseAndStyle draws misnamed_key cases of weather: every case renames a
// declared key present in the value (kept), at that key's place, rejected by the oracle for
// required, and Recognise names it; over the draws, each variant appears.
func TestMisnamedKeyDrawsCaseAndStyle(t *testing.T) {
	gk, g := gentest.New(t, weather)
	ctx := mutators.NewContext(gk, nil)
	ms, err := mutators.Select(string(mutators.MisnamedKey))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	draw := rapid.Custom(func(rt *rapid.T) int {
		v, ok := g.Draw(rt)
		if !ok {
			return 0
		}
		m, ok := ms[0].Mutate(rt, ctx.Target(v))
		if !ok {
			t.Errorf("no misnamed_key case of %v", v)
			return 0
		}
		if m.Class != mutators.MisnamedKey || m.Expect != corpus.Reject || m.Keyword != "required" {
			t.Errorf("case %+v: want a must-reject misnamed_key case for required", m)
		}
		if _, err := gk.Parse(m.Args); err == nil {
			t.Errorf("the oracle accepts %s", m.Args)
		}
		got, err := jsonvalue.Parse(m.Args)
		if err != nil {
			t.Fatal(err)
		}
		obj := got.(map[string]any)
		if _, kept := obj[m.Path[1:]]; kept || len(obj) != 3 {
			t.Errorf("%s: want %s renamed, the other keys kept", m.Args, m.Path)
		}
		for k := range obj {
			if k != "city" && k != "file_name" && k != "repoName" {
				keys[k] = true
			}
		}
		if !ctx.Recognise(m.Args).Names(m) {
			t.Errorf("Recognise does not read %s back as %s/%s at %s", m.Args, m.Class, m.Variant, m.Path)
		}
		return 0
	})
	for i := 0; i < 200; i++ {
		draw.Example(i)
	}
	for _, k := range []string{"City", "CITY", "fileName", "File_name", "FILE_NAME", "repo_name",
		"RepoName", "REPONAME",
		"reponame"} {
		if !keys[k] {
			t.Errorf("never drawn: %q (drawn: %v)", k, sortedSet(keys))
		}
	}
}

func sortedSet(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// caseInsensitive is a Go gate that decodes the arguments into a struct with encoding/json,
// which binds keys case-insensitively (unknown fields refused), and requires every field:
// `{"City": ...}` fills city.
var caseInsensitive = validator.Func("case-insensitive", func(tool.Tool) (func([]byte) (any, error), error) {
	return func(args []byte) (any, error) {
		var in struct {
			City     *string `json:"city"`
			FileName *string `json:"file_name"`
			RepoName *string `json:"repoName"`
		}
		d := json.NewDecoder(bytes.NewReader(args))
		d.DisallowUnknownFields()
		if err := d.Decode(&in); err != nil {
			return nil, err
		}
		if in.City == nil || in.FileName == nil || in.RepoName == nil {
			return nil, errors.New("missing a required field")
		}
		return map[string]any{"city": *in.City, "file_name": *in.FileName, "repoName": *in.RepoName}, nil
	}, nil
})

// TestMisnamedKeyFindsACaseInsensitiveGate runs misnamed_key against the Go gate: it misses
// the keys written in another case (encoding/json binds them), and rejects the other styles,
// which it does not.
func TestMisnamedKeyFindsACaseInsensitiveGate(t *testing.T) {
	ms, err := mutators.Select(string(mutators.MisnamedKey))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harness.Run([]tool.Tool{weather}, caseInsensitive, harness.Options{Mutators: ms, Checks: 60})
	if err != nil {
		t.Fatal(err)
	}
	var variants []string
	for _, f := range rep.Findings {
		if f.Class != mutators.MisnamedKey || f.Kind != "missed" {
			t.Errorf("finding %s %s: want misnamed_key missed", f.Class, f.Kind)
		}
		variants = append(variants, f.Case.Variant)
	}
	if rep.Passed || len(variants) == 0 {
		t.Fatalf("the case-insensitive gate passed misnamed_key")
	}
	for _, v := range variants {
		if !slices.Contains([]string{"capitalised", "upper-case", "lower-case"}, v) {
			t.Errorf("a finding of variant %s, which encoding/json does not bind", v)
		}
	}
}

// TestMisnamedKeyAudit audits misnamed_key: caught where the object requires the key, passing
// in an open object that requires nothing, caught again once that object is closed.
func TestMisnamedKeyAudit(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   audit.Status
	}{
		{`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`, audit.Caught},
		{`{"type":"object","properties":{"city":{"type":"string"}}}`, audit.Passes},
		{`{"type":"object","properties":{"city":{"type":"string"}},"additionalProperties":false}`, audit.Caught},
	} {
		gk, _ := gentest.Schema(t, tc.schema)
		rep := audit.Tool(gk, audit.Options{})
		i := slices.IndexFunc(rep.Places,
			func(p audit.Place) bool { return p.Class == mutators.MisnamedKey && p.Path == "" })
		if i < 0 {
			t.Errorf("%s: no misnamed_key place at the root: %+v", tc.schema, rep.Places)
			continue
		}
		if p := rep.Places[i]; p.Status != tc.want || p.Witness == nil || !strings.EqualFold(p.Witness.Path, "/city") {
			t.Errorf("%s: misnamed_key %s (%s), witness %+v; want %s at /city", tc.schema, p.Status,
				p.Why, p.Witness, tc.want)
		}
	}
}
