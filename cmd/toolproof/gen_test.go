package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

type genOut struct {
	Tool       *string `json:"tool"`
	Args       *string `json:"args"`
	ArgsBase64 *string `json:"args_base64"`
	Expect     *string `json:"expect"`
	Class      *string `json:"class"`
	Variant    string  `json:"variant"`
	Path       *string `json:"path"`
	Keyword    *string `json:"keyword"`
	Reason     *string `json:"reason"`
	Canary     string  `json:"canary"`
	ID         *string `json:"id"`
	SchemaHash string  `json:"schema_hash"`
	Scope      string  `json:"scope"`
	Also       []struct {
		Path  string `json:"path"`
		Scope string `json:"scope"`
	} `json:"also"`
	Original string `json:"original"`
}

func parseGen(t *testing.T, out string) []genOut {
	t.Helper()
	var lines []genOut
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var l genOut
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.DisallowUnknownFields()
		if err := d.Decode(&l); err != nil {
			t.Fatalf("gen line %d: %v\n%s", n, err, sc.Text())
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func (l genOut) raw(t *testing.T) []byte {
	t.Helper()
	switch {
	case l.Args != nil && l.ArgsBase64 == nil:
		return []byte(*l.Args)
	case l.ArgsBase64 != nil && l.Args == nil:
		b, err := base64.StdEncoding.DecodeString(*l.ArgsBase64)
		if err != nil {
			t.Fatalf("args_base64: %v", err)
		}
		return b
	}
	t.Fatalf("a line needs exactly one of args and args_base64: %+v", l)
	return nil
}

// rootClasses are the classes that distort the arguments as a whole: their path is the root "",
// which gen's JSON leaves out.
var rootClasses = map[string]bool{"root_not_object": true, "malformed_json": true, "wrapper_nesting": true,
	"implementation_defined": true}

func TestGenDeterministicAndComplete(t *testing.T) {
	names := []string{"read", "grep", "http_request", "deploy_service"}
	gen := func(seed string) string {
		args := []string{"gen", "--n", "3", "--seed", seed, "--valid", "--mutated"}
		for _, n := range names {
			args = append(args, "--tools", corpusTool(n))
		}
		return must(t, 0, args...).stdout
	}
	a, b, other := gen("9"), gen("9"), gen("10")
	if a != b {
		t.Fatal("gen with the same seed gave different output")
	}
	if a == other {
		t.Fatal("gen with seeds 9 and 10 gave the same output")
	}
	oracles := map[string]*oracle.Gatekeeper{}
	for _, n := range names {
		set, err := tool.Load(corpusTool(n))
		if err != nil {
			t.Fatal(err)
		}
		gk, err := oracle.Compile(set.Tools[0])
		if err != nil {
			t.Fatal(err)
		}
		oracles[n] = gk
	}
	lines := parseGen(t, a)
	byID := map[string]string{}
	valid := map[string]int{}
	classes := map[string]bool{}
	for i, l := range lines {
		if l.Tool == nil || l.Expect == nil || l.Class == nil || l.ID == nil {
			t.Fatalf("line %d lacks tool, expect, class or id: %+v", i+1, l)
		}
		raw := l.raw(t)
		tl, class, expect, id := *l.Tool, *l.Class, *l.Expect, *l.ID
		classes[class] = true
		if want := corpus.ComputeID(tl, corpus.Class(class), corpus.Expect(expect), raw); id != want {
			t.Errorf("line %d: id %s, want the content hash %s", i+1, id, want)
		}
		content := tl + "\x00" + class + "\x00" + expect + "\x00" + string(raw)
		if prev, ok := byID[id]; ok && prev != content {
			t.Errorf("line %d: id %s names two different cases", i+1, id)
		}
		byID[id] = content
		gk := oracles[tl]
		if gk == nil {
			t.Fatalf("line %d: unknown tool %q", i+1, tl)
		}
		_, err := gk.Parse(raw)
		switch expect {
		case "accept":
			if class != "valid" {
				t.Errorf("line %d: class %s expects accept", i+1, class)
			}
			valid[tl]++
			if err != nil {
				t.Errorf("line %d: a valid case the reference rejects: %v\n%s", i+1, err, raw)
			}
		case "reject":
			if err == nil {
				t.Errorf("line %d: a %s case the reference accepts:\n%s", i+1, class, raw)
			}
		case "either":
			if class != "implementation_defined" {
				t.Errorf("line %d: class %s expects either", i+1, class)
			}
		default:
			t.Errorf("line %d: expect %q", i+1, expect)
		}
		if class == "valid" {
			continue
		}
		if l.Reason == nil || *l.Reason == "" {
			t.Errorf("line %d (%s): no reason", i+1, class)
		}
		if expect == "reject" && (l.Keyword == nil || *l.Keyword == "") {
			t.Errorf("line %d (%s): no keyword", i+1, class)
		}
		// Every distortion says where it is; whole-argument ones are at the root, "".
		switch {
		case l.Path == nil:
			t.Errorf("line %d (%s): no path", i+1, class)
		case rootClasses[class] && *l.Path != "":
			t.Errorf("line %d (%s): path %q, want the root \"\"", i+1, class, *l.Path)
		case !rootClasses[class] && *l.Path != "" && !strings.HasPrefix(*l.Path, "/"):
			t.Errorf("line %d (%s): path %q is not a JSON Pointer", i+1, class, *l.Path)
		}
	}
	for _, n := range names {
		if valid[n] != 3 {
			t.Errorf("tool %s: %d valid lines, want 3 (--n 3)", n, valid[n])
		}
	}
	for _, c := range []string{"valid", "stringified_type", "hallucinated_key", "out_of_range_enum", "malformed_json"} {
		if !classes[c] {
			t.Errorf("no %s line", c)
		}
	}

	// --valid alone (the default) gives only valid lines; --mutated alone only distortions.
	for _, tc := range []struct {
		flag      string
		wantValid bool
	}{{"", true}, {"--valid", true}, {"--mutated", false}} {
		args := []string{"gen", "--tools", corpusTool("read"), "--n", "2", "--seed", "9"}
		if tc.flag != "" {
			args = append(args, tc.flag)
		}
		for _, l := range parseGen(t, must(t, 0, args...).stdout) {
			if (*l.Class == "valid") != tc.wantValid {
				t.Errorf("gen %q: a %s line", tc.flag, *l.Class)
			}
		}
	}
}

func TestGenSchemaFile(t *testing.T) {
	f := writeFile(t, t.TempDir(), "weather_args.json",
		`{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1,`+
			`"maximum":14}},"required":["city"],"additionalProperties":false}`)
	lines := parseGen(t, must(t, 0, "gen", "--schema", f, "--n", "4", "--seed", "2", "--mutated", "--valid").stdout)
	if len(lines) == 0 {
		t.Fatal("no lines")
	}
	for _, l := range lines {
		if *l.Tool != "weather_args" {
			t.Fatalf("tool %q, want the file's base name weather_args", *l.Tool)
		}
	}
}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       *bool           `json:"valid"`
	} `json:"tests"`
}

// The test-suite export must never hold a wrong expectation: every test is checked with the
// reference here, and with Python's jsonschema when it is installed.
func TestGenTestSuiteMatchesTheReference(t *testing.T) {
	for _, closed := range []bool{false, true} {
		t.Run(fmt.Sprintf("close=%v", closed), func(t *testing.T) {
			args := []string{"gen", "--tools", corpusDir, "--n", "3", "--seed", "9", "--valid", "--mutated",
				"--format", "test-suite"}
			if closed {
				args = append(args, "--close")
			}
			r := must(t, 0, args...)
			var groups []suiteGroup
			d := json.NewDecoder(strings.NewReader(r.stdout))
			d.DisallowUnknownFields()
			if err := d.Decode(&groups); err != nil {
				t.Fatalf("the test suite does not parse as [{description, schema, tests}]: %v", err)
			}
			if len(groups) != corpusSize {
				seen := map[string]bool{}
				for _, g := range groups {
					seen[strings.TrimPrefix(g.Description, "toolproof cases for tool ")] = true
				}
				var missing []string
				for _, tl := range sample.Tools().Tools {
					if !seen[tl.Name] {
						missing = append(missing, tl.Name)
					}
				}
				t.Errorf("%d groups, want one per corpus tool (%d); no group for %v", len(groups), corpusSize, missing)
			}
			counts := map[bool]int{}
			for _, g := range groups {
				if g.Description == "" || len(g.Tests) == 0 {
					t.Errorf("group %q: empty description or no tests", g.Description)
				}
				gk, err := oracle.Compile(tool.Tool{Name: "suite", Parameters: g.Schema})
				if err != nil {
					t.Errorf("group %q: the schema does not compile: %v", g.Description, err)
					continue
				}
				annotation := compileAnnotationOnly(t, g.Schema)
				if closed && !bytes.Contains(g.Schema, []byte(`"additionalProperties":false`)) &&
					!bytes.Contains(g.Schema, []byte(`"additionalProperties": false`)) {
					t.Errorf("group %q: --close, but the schema given is not closed", g.Description)
				}
				for _, tc := range g.Tests {
					if tc.Description == "" || tc.Valid == nil || tc.Data == nil {
						t.Errorf("group %q: a test lacks description, data or valid", g.Description)
						continue
					}
					v, err := jsonvalue.Parse(tc.Data)
					if err != nil {
						t.Errorf("group %q, %q: data: %v", g.Description, tc.Description, err)
						continue
					}
					counts[*tc.Valid]++
					if got := gk.Valid(v); got != *tc.Valid {
						t.Errorf("group %q, %q: valid %v, but the reference says %v for %s", g.Description,
							tc.Description, *tc.Valid, got, tc.Data)
					}
					if got := annotation.valid(v); got != *tc.Valid {
						t.Errorf("group %q, %q: valid %v, but with format as an annotation (the test suite's "+
							"default) the schema says %v for %s",
							g.Description, tc.Description, *tc.Valid, got, tc.Data)
					}
				}
			}
			if counts[true] == 0 || counts[false] == 0 {
				t.Errorf("valid tests %d, invalid tests %d: want both", counts[true], counts[false])
			}
			f := writeFile(t, t.TempDir(), "suite.json", r.stdout)
			checkWithPython(t, f)
		})
	}
}

// A JSON-Schema-Test-Suite file is replayed by runners that treat format as an annotation (draft
// 2020-12's default; format assertions live in the suite's optional/format directory): an export
// whose expectation holds only when formats are asserted is wrong for them.
func TestGenTestSuiteHoldsWithFormatAsAnnotation(t *testing.T) {
	// source is anyOf [{format: ipv4}, {pattern: CIDR}, {const: "any"}]: "ANY" breaks the const, but
	// is a valid string wherever ipv4 is not asserted.
	r := must(t, 0, "gen", "--tools", corpusTool("firewall_add_rule"), "--n", "30", "--seed", "3", "--mutated",
		"--mutators", "out_of_range_enum", "--format", "test-suite")
	var groups []suiteGroup
	if err := json.Unmarshal([]byte(r.stdout), &groups); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, g := range groups {
		annotation := compileAnnotationOnly(t, g.Schema)
		for _, tc := range g.Tests {
			v, err := jsonvalue.Parse(tc.Data)
			if err != nil {
				t.Fatal(err)
			}
			if annotation.valid(v) != *tc.Valid {
				bad++
				if bad <= 3 {
					t.Errorf("%q: valid %v only when formats are asserted: %s", tc.Description, *tc.Valid, tc.Data)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d exported tests hold only when formats are asserted", bad)
	}
	checkWithPython(t, writeFile(t, t.TempDir(), "suite.json", r.stdout))
}

// annotationOnly is a schema compiled as JSON-Schema-Test-Suite runners do by default: draft
// 2020-12 unless $schema says otherwise, format an annotation, no remote references.
type annotationOnly struct{ s *jsonschema.Schema }

func (a annotationOnly) valid(v any) bool { return a.s.Validate(v) == nil }

func compileAnnotationOnly(t *testing.T, schema json.RawMessage) annotationOnly {
	t.Helper()
	doc, err := jsonvalue.Parse(schema)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const loc = "mem://suite/schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		t.Fatalf("the exported schema does not compile: %v", err)
	}
	return annotationOnly{s}
}

const pythonSuiteCheck = `
import json, sys
from jsonschema import validators, Draft202012Validator
groups = json.load(open(sys.argv[1]))
bad = 0
n = 0
for g in groups:
    cls = validators.validator_for(g["schema"], default=Draft202012Validator)
    v = cls(g["schema"])
    for t in g["tests"]:
        n += 1
        if v.is_valid(t["data"]) != t["valid"]:
            bad += 1
            print("disagree:", g["description"], "|", t["description"], "| valid:", t["valid"], "|", json.dumps(t["data"])[:300])
print("checked", n, "tests,", bad, "disagreements")
sys.exit(1 if bad else 0)
`

// checkWithPython validates an exported test suite with Python's jsonschema (formats as
// annotations, as the JSON-Schema-Test-Suite runners do). Skipped, alone, when python3 or the
// jsonschema package is not there.
func checkWithPython(t *testing.T, file string) {
	t.Run("python-jsonschema", func(t *testing.T) {
		py, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 is not on PATH: the export was checked with the reference only")
		}
		if out, err := exec.Command(py, "-c", "import jsonschema").CombinedOutput(); err != nil {
			t.Skipf("python3 has no jsonschema package (%s): the export was checked with the reference only",
				bytes.TrimSpace(out))
		}
		out, err := exec.Command(py, "-c", pythonSuiteCheck, file).CombinedOutput()
		if err != nil {
			t.Errorf("Python's jsonschema disagrees with the exported expectations: %v\n%s", err, clip(string(out)))
		} else {
			t.Logf("python jsonschema: %s", bytes.TrimSpace(out))
		}
	})
}
