package main

import (
	"regexp"
	"strconv"
	"testing"
)

// TestJUnitTimeOnlyDifference: JUnit from run has the run's wall time on its testsuites element;
// two runs of one seed differ in nothing else.
func TestJUnitTimeOnlyDifference(t *testing.T) {
	args := []string{"run", "--checks", "3", "--seed", "5", "--tool", "read", "--format", "junit"}
	attr := regexp.MustCompile(`<testsuites [^>]*? time="([0-9]+\.[0-9]{3})"`)
	var normal []string
	for i := 0; i < 2; i++ {
		out := must(t, 0, args...).stdout
		m := attr.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no time attribute on testsuites:\n%s", clip(out))
		}
		if _, err := strconv.ParseFloat(m[1], 64); err != nil {
			t.Fatal(err)
		}
		normal = append(normal, regexp.MustCompile(` time="[0-9.]+"`).ReplaceAllString(out, ""))
	}
	if normal[0] != normal[1] {
		t.Errorf("two runs of seed 5 differ beyond their time:\n%s\n---\n%s", clip(normal[0]), clip(normal[1]))
	}
}
