package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bfclDir is BFCL's data beside the checkout (../shared/data/bfcl from the module root); the
// tests that read it skip only when it is absent.
const bfclDir = "../../../shared/data/bfcl"

func needBFCL(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(bfclDir); err != nil {
		t.Skipf("BFCL data absent (%v): the measurement needs ../shared/data/bfcl", err)
	}
}

// TestRoundTripOnBFCL: the mutation-classifies-back property on the first 300 closed BFCL
// tools, 2 values each (measure roundtrip runs all 3,515).
func TestRoundTripOnBFCL(t *testing.T) {
	needBFCL(t)
	data, err := os.ReadFile(filepath.Join(bfclDir, "bfcl-converted-closed.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(data), "\n", 301)[:300]
	sample := filepath.Join(t.TempDir(), "sample.jsonl")
	if err := os.WriteFile(sample, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := roundTrip([]string{sample}, 2, &out); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`, 0 read back otherwise; \d+ mutations in \d+ classes and variants, 0 read back ` +
		`otherwise;`).MatchString(out.String()) {
		t.Errorf("round trip on BFCL:\n%s", out.String())
	}
}

// TestClassifyVerdictsOnBFCL: every verdict on BFCL's labelled calls agrees with
// python-jsonschema and with the label.
func TestClassifyVerdictsOnBFCL(t *testing.T) {
	needBFCL(t)
	var out bytes.Buffer
	err := classifyMeasure([]string{"-calls", filepath.Join(bfclDir, "bfcl-valid-args.jsonl"),
		filepath.Join(bfclDir, "bfcl-converted.jsonl")}, &out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3302 labelled calls (3209 valid, 93 invalid)", "0 either, 0 disagree",
		"3082 of 3082 right", "220 of 220 right", "3209 valid, 93 invalid, 0 unexplained"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("measurement lacks %q:\n%s", want, out.String())
		}
	}
}
