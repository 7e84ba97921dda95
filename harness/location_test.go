package harness_test

import (
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// deployTool is deploy_service's if/else in small: without "environment": "prod", replicas are
// capped at 10, and every valid value has more (so "environment" is always "prod").
var deployTool = tool.Tool{Name: "deploy", Parameters: []byte(`{"type":"object",
	"properties":{"environment":{"enum":["dev","prod"]},"replicas":{"type":"integer","minimum":11,"maximum":50},
		"name":{"type":"string"}},
	"required":["environment","name","replicas"],"additionalProperties":false,
	"if":{"properties":{"environment":{"const":"prod"}},"required":["environment"]},
	"else":{"properties":{"replicas":{"maximum":10}}}}`)}

// reportsAs is the reference gate with its issues rewritten: a gate that rejects what the
// reference rejects, and says so in its own places.
func reportsAs(name string, rewrite func(args []byte, issues []validator.Issue) []validator.Issue) validator.Validator {
	return validator.Func(name, func(t tool.Tool) (func([]byte) (any, error), error) {
		gk, err := oracle.Compile(t)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) {
			_, err := gk.Parse(args)
			if err == nil {
				return nil, nil
			}
			return nil, &validator.Error{Tool: t.Name, Issues: rewrite(args, validator.IssuesOf(err))}
		}, nil
	})
}

// firstErrorGate rejects with one issue: the first the reference finds, in path order, the way
// a gate that stops at its first error does (jsonschema-go); or, with at, always there.
func firstErrorGate(at string) validator.Validator {
	return reportsAs("first-error", func(_ []byte, is []validator.Issue) []validator.Issue {
		first := is[len(is)-1] // "/replicas" sorts after "/environment"
		if at != "" {
			first.Path = at
		}
		return []validator.Issue{first}
	})
}

// A missing or wrong "environment" flips the if, and the else then fails at /replicas: a gate
// that reports only that has located the distortion (the reference reports it too). A gate
// that always points at /replicas has not, when /replicas is fine.
func TestLocatedWhereTheElseFails(t *testing.T) {
	ms, err := mutators.Select("missing_required,wrong_type,null_value")
	if err != nil {
		t.Fatal(err)
	}
	opts := harness.Options{Checks: 40, Seed: 1, RequireLocation: true, Mutators: ms, Jobs: 1}
	rep, err := harness.Run([]tool.Tool{deployTool}, firstErrorGate(""), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Passed {
		t.Errorf("a gate reporting the else's failure is not located: %v", rep.Findings)
	}
	if st := rep.Classes["missing_required"]; st == nil || st.Located == 0 {
		t.Fatalf("no missing_required case located: %+v", st)
	}
	// A distortion of /name leaves /replicas valid.
	rep, err = harness.Run([]tool.Tool{deployTool}, firstErrorGate("/replicas"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !kinds(rep)[report.ImpreciseLocation] {
		t.Errorf("a gate that always points at /replicas is located everywhere: %v", rep.Findings)
	}
}

// branchGate is the reference gate, but a value whose only error is inside the then (replicas
// 1 or 2, below the production minimum, at at+"/replicas") it rejects with one issue at at, the
// object that holds the if, naming the branch ("must match "then" schema", as TypeBox does).
func branchGate(at string, branch *atomic.Int64) validator.Validator {
	return reportsAs("branch", func(args []byte, is []validator.Issue) []validator.Issue {
		if len(is) == 1 && is[0].Path == at+"/replicas" && is[0].Keyword == "minimum" && belowThen.Match(args) {
			branch.Add(1)
			return []validator.Issue{{Path: at, Keyword: "then", Message: "must match the then schema"}}
		}
		return is
	})
}

// belowThen matches replicas of 1 or 2: valid but for the then.
var belowThen = regexp.MustCompile(`"replicas":[12](\.0)?[,}]`)

// A bound broken inside a then (replicas below the production minimum) may be reported as the
// then that fails, at the object that holds the if: that locates it, at the root or where a
// $ref brings the if in.
func TestLocatedAtTheFailingBranch(t *testing.T) {
	const deploy = `{"type":"object",
		"properties":{"environment":{"const":"prod"},"replicas":{"type":"integer","minimum":1,"maximum":50}},
		"required":["environment","replicas"],"additionalProperties":false,
		"if":{"properties":{"environment":{"const":"prod"}}},
		"then":{"properties":{"replicas":{"minimum":3}}}}`
	for _, tc := range []struct{ at, schema string }{
		{"", deploy},
		{"/job", `{"type":"object","properties":{"job":{"$ref":"#/$defs/deploy"}},"required":["job"],"additionalProperties":false,
			"$defs":{"deploy":` + deploy + `}}`},
	} {
		tl := tool.Tool{Name: "deploy", Parameters: []byte(tc.schema)}
		ms, err := mutators.Select("out_of_range_enum")
		if err != nil {
			t.Fatal(err)
		}
		var branch atomic.Int64
		rep, err := harness.Run([]tool.Tool{tl}, branchGate(tc.at, &branch),
			harness.Options{Checks: 200, Seed: 1, RequireLocation: true, Mutators: ms, Jobs: 1}) // -short: 40
		if err != nil {
			t.Fatal(err)
		}
		st := rep.Classes["out_of_range_enum"]
		if st == nil || st.Rejected == 0 {
			t.Fatalf("at %q: no out_of_range_enum case rejected: %+v", tc.at, st)
		}
		if !rep.Passed {
			t.Errorf("a gate naming the failing then at %q is not located: %v", tc.at, rep.Findings)
		}
		if branch.Load() == 0 {
			t.Fatalf("at %q: no case made the gate name the branch: the test tests nothing", tc.at)
		}
	}
}

// A then that fails only by a propertyNames inside it, at an object below the one that holds
// the if, may be reported as that then (Ajv says "must match "then" schema" at the root).
func TestLocatedAtTheFailingBranchOfPropertyNames(t *testing.T) {
	tl := tool.Tool{Name: "pn", Parameters: []byte(`{"type":"object",
		"properties":{"strict":{"const":true},"opts":{"type":"object","properties":{"a":{"type":"integer"}}}},
		"required":["strict","opts"],"if":{"required":["strict"]},
		"then":{"properties":{"opts":{"propertyNames":{"maxLength":3}}}}}`)}
	ms, err := mutators.Select("hallucinated_key")
	if err != nil {
		t.Fatal(err)
	}
	var named atomic.Int64
	gate := reportsAs("then-only", func(_ []byte, is []validator.Issue) []validator.Issue {
		if len(is) == 1 && is[0].Keyword == "propertyNames" {
			named.Add(1)
			return []validator.Issue{{Path: "", Keyword: "then", Message: "must match the then schema"}}
		}
		return is
	})
	rep, err := harness.Run([]tool.Tool{tl}, gate,
		harness.Options{Checks: 100, Seed: 1, RequireLocation: true, Mutators: ms, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if named.Load() == 0 {
		t.Fatal("no case made the gate name the branch: the test tests nothing")
	}
	if !rep.Passed {
		t.Errorf("a gate naming the then a propertyNames fails in is not located: %v", rep.Findings)
	}
}
