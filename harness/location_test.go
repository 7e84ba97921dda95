package harness_test

import (
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// deployTool is deploy_service's if/else in small: without "environment": "prod", replicas are
// capped at 10, and every valid value has more (so "environment" is always "prod").
var deployTool = tool.Tool{Name: "deploy", Parameters: []byte(`{"type":"object",
	"properties":{"environment":{"enum":["dev","prod"]},"replicas":{"type":"integer","minimum":11,"maximum":50},
		"name":{"type":"string"}},
	"required":["environment","name","replicas"],"additionalProperties":false,
	"if":{"properties":{"environment":{"const":"prod"}},"required":["environment"]},
	"else":{"properties":{"replicas":{"maximum":10}}}}`)}

// firstErrorGate rejects with one issue: the first the reference finds, in path order, the way
// a gate that stops at its first error does (jsonschema-go); or, with at, always there.
func firstErrorGate(at string) validator.Validator {
	return validator.Func("first-error", func(t tool.Tool) (func([]byte) (any, error), error) {
		gk, err := validator.Compile(t)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) {
			_, err := gk.Parse(args)
			if err == nil {
				return nil, nil
			}
			is := validator.IssuesOf(err)
			first := is[len(is)-1] // "/replicas" sorts after "/environment"
			if at != "" {
				first.Path = at
			}
			return nil, &validator.Error{Tool: t.Name, Issues: []validator.Issue{first}}
		}, nil
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
	imprecise := 0
	for _, f := range rep.Findings {
		if f.Kind == harness.ImpreciseLocation {
			imprecise++
		}
	}
	if imprecise == 0 {
		t.Errorf("a gate that always points at /replicas is located everywhere: %v", rep.Findings)
	}
}
