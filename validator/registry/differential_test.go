package registry_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/needs"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// The standing differential, small: correct validators get no blocking finding on the
// embedded corpus, on testdata/interop.json (integers without bounds, bounds past 2^53,
// decimal multipleOf, exclusive bounds, patterns whose shorthands the regex dialects read
// differently, enums of mixed types) and on testdata/division.json (bounds so large that a
// value past one, read as a double, meets it and fails a multipleOf that floating-point
// division passes). A blocking finding here is a false alarm of toolproof
// (or a library bug, to be documented and the case left out). `go run ./cmd/measure
// differential` runs the large version over BFCL.
func TestDifferentialNoFalseAlarm(t *testing.T) {
	var all tool.Set
	all.Merge(sample.Tools())
	for _, file := range []string{"testdata/interop.json", "testdata/division.json"} {
		set, err := tool.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Skipped) > 0 {
			t.Fatalf("%s: skipped %v", file, set.Skipped)
		}
		all.Merge(set)
	}
	for _, name := range []string{"ajv", "jsonschema-go"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // ajv in node and jsonschema-go in the zoo: processes of their own
			o := zoo
			if name == "ajv" {
				requireNode(t)
				o = newOpener()
			}
			rep := run(t, open(t, o, name), all.Tools, harness.Options{})
			for _, s := range rep.Skipped {
				if strings.HasPrefix(s.Source, "testdata/") {
					t.Errorf("%s skipped a tool of %s: %s", name, s.Source, s)
				}
			}
			groups := map[string][]report.Finding{}
			for _, f := range rep.Findings {
				if f.Blocking && knownBug(name, f) {
					t.Logf("%s: known library bug, not counted: %s at %s", name, f, f.Path)
					continue
				}
				if f.Blocking {
					k := fmt.Sprintf("%s %s %s", f.Class, f.Kind, f.Variant)
					groups[k] = append(groups[k], f)
				}
			}
			var keys []string
			for k := range groups {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fs := groups[k]
				f := fs[0]
				t.Errorf("%s: %d blocking %s findings, e.g. %s at %s: %s\n  args %s", name, len(fs), k, f.Tool,
					f.Path, f.Reason, f.Args)
			}
		})
	}
}

// knownBug reports the findings that are bugs of the library, shown by
// TestKnownLibraryBugs: Ajv 8 counts a key Object.prototype has (__proto__, toString, ...) as
// evaluated under unevaluatedProperties after anyOf/oneOf (the corpus's schedule_job /target).
func knownBug(validator string, f report.Finding) bool {
	return validator == "ajv" && f.Class == mutators.HallucinatedKey && f.Variant == "js-special-key" &&
		f.Kind == report.Missed && f.Tool == "schedule_job"
}

// The library bugs knownBug leaves out are real: when a release fixes one, this fails, and
// the exception goes.
func TestKnownLibraryBugs(t *testing.T) {
	requireNode(t)
	v := open(t, newOpener(), "ajv")
	tl := tool.Tool{Name: "uneval",
		Parameters: []byte(`{"type":"object","anyOf":[{"properties":{"a":true}}],"unevaluatedProperties":false}`)}
	if vd := verdict(t, v, tl, `{"zz":1}`); vd.Valid {
		t.Fatalf("ajv accepts an unevaluated key; the probe is wrong")
	}
	for _, k := range []string{"__proto__", "toString", "constructor"} {
		if vd := verdict(t, v, tl, `{"`+k+`":1}`); !vd.Valid {
			t.Errorf("ajv now rejects the unevaluated key %s: its bug is fixed, drop it from knownBug", k)
		}
	}
}

// The python-jsonschema adapter gives the verdicts a strict gate owes, with issues where the
// protocol wants them. Skipped when python3 with the jsonschema package is missing (a failure
// under TOOLPROOF_REQUIRE_PYTHON=1).
func TestPythonAdapter(t *testing.T) {
	needs.Met(t, "TOOLPROOF_REQUIRE_PYTHON", "the python adapter", needs.Python())
	v := open(t, newOpener(), "python-jsonschema")
	if !strings.HasPrefix(v.Name(), "python-jsonschema ") {
		t.Errorf("the adapter says it is %q", v.Name())
	}
	for _, c := range []struct {
		args  string
		valid bool
		path  string // of the first issue
	}{
		{`{"name":"x","mode":"fast","count":3}`, true, ""},
		{`{"name":"x","count":1.0}`, true, ""},
		{`{"name":"x","count":1.5}`, false, "/count"},
		{`{"name":"x","mode":"turbo"}`, false, "/mode"},
		{`{"mode":"fast"}`, false, "/name"},
		{`{"name":"x","extra":1}`, false, "/extra"},
		{`{"name":"x","name":"y"}`, false, ""},
		{`{"name":"x","count":NaN}`, false, ""},
		{`{"name":"x","count":1e400}`, false, ""},
		{`["name"]`, false, ""},
		{`{"name":"x"} trailing`, false, ""},
		{"\ufeff{\"name\":\"x\"}", false, ""},
		{"{\"name\":\"\xff\"}", false, ""},
	} {
		vd := verdict(t, v, probe, c.args)
		if vd.Valid != c.valid {
			t.Errorf("%q: valid %v, want %v (%v)", c.args, vd.Valid, c.valid, vd.Issues)
			continue
		}
		if !c.valid && (len(vd.Issues) == 0 || vd.Issues[0].Path != c.path) {
			t.Errorf("%q: issues %v, want the first at %q", c.args, vd.Issues, c.path)
		}
		for _, is := range vd.Issues {
			if strings.Contains(is.Message, "turbo") {
				t.Errorf("%q: a message repeats the value: %q", c.args, is.Message)
			}
		}
	}
}
