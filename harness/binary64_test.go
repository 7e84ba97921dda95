package harness_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"testing"
	"unicode/utf8"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// doublesGate is a correct gate that reads every number as a double, as JSON.parse, Python's
// json and Go's float64 do: the arguments and the schema go through encoding/json into float64,
// then the reference judges the doubles' exact values, and with float, divides them for
// multipleOf in floating point, as Ajv does. The binary64 rule says it must get no finding.
func doublesGate(float bool) validator.Validator {
	name := "doubles"
	if float {
		name = "doubles-float-division"
	}
	return validator.Func(name, func(t tool.Tool) (func([]byte) (any, error), error) {
		schema, err := viaDoubles(t.Parameters)
		if err != nil {
			return nil, err
		}
		var opts []oracle.CompileOption
		if float {
			doc, err := jsonvalue.Parse(schema)
			if err != nil {
				return nil, err
			}
			oracle.MarkFloatDivisions(doc, nil)
			schema = jsonvalue.MustMarshal(doc)
			opts = append(opts, oracle.FloatDivision(false))
		}
		gk, err := oracle.Compile(tool.Tool{Name: t.Name, Parameters: schema}, opts...)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) {
			if !utf8.Valid(args) || !json.Valid(args) {
				return nil, errors.New("the arguments are not JSON")
			}
			d, err := viaDoubles(args)
			if err != nil {
				return nil, err
			}
			_, err = gk.Parse(d)
			return nil, err
		}, nil
	})
}

// viaDoubles reads JSON text with encoding/json (numbers as float64) and writes it back with
// every number as the exact decimal value of its double.
func viaDoubles(text []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		// encoding/json's message repeats the number: a leak this correct gate does not commit.
		return nil, errors.New("a number beyond every double")
	}
	var b bytes.Buffer
	if err := writeExact(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeExact(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case float64:
		r := new(big.Rat).SetFloat64(x)
		if r == nil {
			return fmt.Errorf("not a finite number")
		}
		s := r.FloatString(1100)
		s = trimZeros(s)
		b.WriteString(s)
	case map[string]any:
		b.WriteByte('{')
		first := true
		for k, e := range x {
			if !first {
				b.WriteByte(',')
			}
			first = false
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			if err := writeExact(b, e); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeExact(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		eb, err := json.Marshal(x)
		if err != nil {
			return err
		}
		b.Write(eb)
	}
	return nil
}

func trimZeros(s string) string {
	if !bytes.Contains([]byte(s), []byte(".")) {
		return s
	}
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// TestDoublesGateHasNoFinding: a gate that reads numbers as doubles and is otherwise correct is
// never blamed (the binary64 rule), on the corpus and on tools made to tempt it: unbounded
// integers, bounds past 2^53, decimal multipleOf, numeric enums and uniqueItems.
func TestDoublesGateHasNoFinding(t *testing.T) {
	checks := 30
	if testing.Short() {
		checks = 8
	}
	rep := runWithoutFinding(t, doublesGate(false), checks, sample.Tools().Tools, "testdata/numbers.json")
	either, accepted := 0, 0
	for class, st := range rep.Classes {
		either += st.Either
		accepted += st.EitherAccepted
		if st.EitherAccepted > st.Either {
			t.Errorf("%s: %d either cases accepted of %d", class, st.EitherAccepted, st.Either)
		}
	}
	if either == 0 {
		t.Errorf("no case was implementation-defined: the number tools should yield some")
	}
	// The report shows what a double-based gate does with them: it takes some, not all (it
	// cannot read 1e400).
	if accepted == 0 || accepted == either {
		t.Errorf("the doubles gate accepted %d of %d implementation-defined cases; want some, not all",
			accepted, either)
	}
	// The mutators prefer bounds broken by a margin a double sees: near 2^53 and past it, no
	// out_of_range_enum case depends on how numbers are read.
	if st := rep.Classes[string(mutators.OutOfRangeEnum)]; st == nil || st.Cases == 0 || st.Either > 0 {
		t.Errorf("out_of_range_enum: %+v; want cases, none of them implementation-defined", st)
	}
}

// The same gate dividing in floating point, on tools whose bounds a double cannot tell from a
// value past them, beside a decimal multipleOf (validator/registry/testdata/division.json, the
// standing differential's), and on numbers.json: no finding.
func TestFloatDivisionGateHasNoFinding(t *testing.T) {
	checks := 60
	if testing.Short() {
		checks = 15
	}
	runWithoutFinding(t, doublesGate(true), checks, nil, "testdata/numbers.json",
		"../validator/registry/testdata/division.json")
}

// runWithoutFinding runs gate over tools and the tool files, with checks values per tool and
// seed 1, fails the test on each blocking finding, and returns the report.
func runWithoutFinding(t *testing.T, gate validator.Validator, checks int, tools []tool.Tool,
	files ...string) *report.Report {
	t.Helper()
	for _, f := range files {
		set, err := tool.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, set.Tools...)
	}
	rep, err := harness.Run(tools, gate, harness.Options{Checks: checks, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Blocking {
			t.Errorf("finding against %s, a correct gate: %s\n  args %s", gate.Name(), f, f.Args)
		}
	}
	return rep
}
