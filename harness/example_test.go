package harness_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// read is the embedded corpus's read tool: a path (a non-empty string, required), an offset
// (an integer, at least 0) and a limit (an integer from 1 to 2000), and nothing else.
var read, _ = sample.Tools().Lookup("read")

// coercing "helps" the model by turning "20" into 20 before validating with the reference, as
// Ajv's coerceTypes does, and passes the coerced value on.
var coercing = validator.Func("coercing", func(t tool.Tool) (func([]byte) (any, error), error) {
	gk, err := oracle.Compile(t)
	if err != nil {
		return nil, err
	}
	return func(args []byte) (any, error) {
		d := json.NewDecoder(bytes.NewReader(args))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		if m, ok := v.(map[string]any); ok {
			if s, ok := m["limit"].(string); ok {
				if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
					m["limit"] = json.Number(strings.TrimSpace(s))
				}
			}
		}
		return v, gk.Validate(v)
	}, nil
})

// A gate that coerces lets stringified numbers through: Run finds it, shrinks it to a minimal
// case and says what the gate passed on.
func Example() {
	only, _ := mutators.Select("stringified_type,out_of_range_enum")
	rep, err := harness.Run([]tool.Tool{read}, coercing, harness.Options{Mutators: only})
	if err != nil {
		panic(err)
	}
	fmt.Println("passed:", rep.Passed)
	for _, f := range rep.Findings {
		fmt.Println(f.Tool, f.Class, f.Kind, "at", f.Path)
	}
	// Output:
	// passed: false
	// read stringified_type missed at /limit
}

// With Close, objects that do not say otherwise are closed (OpenAI's strict mode), for the gate
// and the oracle alike: invented keys become must-reject cases where the open schema let them
// pass, so hallucinated_key applies.
func ExampleOptions_close() {
	open := tool.Tool{Name: "search",
		Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)}
	only, _ := mutators.Select("hallucinated_key")
	for _, closed := range []bool{false, true} {
		rep, err := harness.Run([]tool.Tool{open}, oracle.Reference{}, harness.Options{Mutators: only, Close: closed})
		if err != nil {
			panic(err)
		}
		st := rep.Classes["hallucinated_key"]
		fmt.Printf("close=%v: hallucinated keys sent: %v, not applicable: %v, passed: %v\n", closed, st.Cases > 0,
			st.NotApplicable > 0, rep.Passed)
	}
	// Output:
	// close=false: hallucinated keys sent: false, not applicable: true, passed: true
	// close=true: hallucinated keys sent: true, not applicable: false, passed: true
}

// A report.Comparison puts several validators' reports on the same tools side by side; every
// format (text, json, junit, markdown) lists each validator's findings.
func Example_comparison() {
	only, _ := mutators.Select("stringified_type")
	var reports []*report.Report
	for _, v := range []validator.Validator{oracle.Reference{}, coercing} {
		rep, err := harness.Run([]tool.Tool{read}, v, harness.Options{Mutators: only})
		if err != nil {
			panic(err)
		}
		reports = append(reports, rep)
	}
	var out bytes.Buffer
	if err := (&report.Comparison{Reports: reports}).Write(&out, "text"); err != nil {
		panic(err)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "class"), strings.HasPrefix(line, "findings of"):
			fmt.Println(strings.Join(f, " "))
		case strings.HasPrefix(line, "  FAIL"):
			fmt.Println(strings.Join(f[:4], " "), "...") // the shrunk case depends on the seed
		}
	}
	// Output:
	// class reference coercing
	// findings of coercing (1; in full: --format json, or a run of this validator alone):
	// FAIL read: stringified_type missed: ...
}

// Fuzz turns the property of Check into a go test -fuzz target for one tool, and FuzzSeeds gives
// it a corpus to start from. In a _test.go file:
//
//	func FuzzRead(f *testing.F) {
//		target, err := harness.Fuzz(read, gate, harness.Options{})
//		if err != nil {
//			f.Fatal(err)
//		}
//		seeds, _ := harness.FuzzSeeds(read, 10, harness.DefaultCorpusDir, harness.Options{})
//		for _, s := range seeds {
//			f.Add(s)
//		}
//		f.Fuzz(target)
//	}
//
// A tool that cannot be checked is an error naming it and why.
func ExampleFuzz() {
	target, err := harness.Fuzz(read, coercing, harness.Options{})
	fmt.Println(target != nil, err)
	seeds, err := harness.FuzzSeeds(read, 2, "", harness.Options{})
	fmt.Println(len(seeds) > 2, err)
	broken := tool.Tool{Name: "broken",
		Parameters: json.RawMessage(`{"type":"object","minProperties":2,"maxProperties":1}`)}
	_, err = harness.Fuzz(broken, coercing, harness.Options{})
	fmt.Println(err)
	// Output:
	// true <nil>
	// true <nil>
	// broken (): tool "broken": schema is unsatisfiable: no type can satisfy the schema (object: minProperties is above maxProperties)
}
