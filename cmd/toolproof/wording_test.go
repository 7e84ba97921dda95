package main

import "testing"

// TestPatternsReadAnyValidator: --reject-pattern and --ran-pattern read the error answers of
// any toolproof/1 validator, as they read an MCP server's. The test adapter answers every
// rejection as an error answer in its own words: unclear by default (no finding, counted), a
// rejection with --reject-pattern (the run of a correct gate), a run with --ran-pattern (every
// must-reject case then got through).
func TestPatternsReadAnyValidator(t *testing.T) {
	spec := execSpec(t, "-strict", "-error-answer", "'bad input'")
	args := []string{"run", "--validator", spec, "--checks", "3", "--seed", "1", "--tool", "bash", "--tool", "write",
		"--format", "json"}
	unclear := func(r jsonReport) int {
		n := 0
		for _, c := range r.Classes {
			n += c.Unclear
		}
		return n
	}
	plain := decodeReport(t, must(t, 0, args...).stdout)
	if unclear(plain) == 0 {
		t.Fatalf("no unclear answer without a pattern: the test adapter did not answer in words of its own")
	}
	rejected := decodeReport(t, must(t, 0, append(args, "--reject-pattern", "^bad input:")...).stdout)
	if n := unclear(rejected); n != 0 || len(rejected.Findings) != 0 {
		t.Errorf("--reject-pattern: %d unclear, findings %v; want a correct gate's run", n, rejected.Findings)
	}
	ran := decodeReport(t, must(t, 1, append(args, "--ran-pattern", "bad input")...).stdout)
	missed := 0
	for _, f := range ran.Findings {
		if f.Kind != "missed" {
			t.Errorf("--ran-pattern: a %s finding, want only missed: %+v", f.Kind, f)
		}
		missed++
	}
	if missed == 0 || unclear(ran) != 0 {
		t.Errorf("--ran-pattern: %d missed findings and %d unclear; every rejection should read as a run",
			missed, unclear(ran))
	}
}
