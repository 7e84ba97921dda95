package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUseColour(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	var buf strings.Builder
	for _, tc := range []struct {
		label string
		env   func(string) string
		want  bool
	}{
		{"not a terminal", env(), false},
		{"FORCE_COLOR", env("FORCE_COLOR", "1"), true},
		{"FORCE_COLOR=0", env("FORCE_COLOR", "0"), false},
		{"NO_COLOR wins", env("FORCE_COLOR", "1", "NO_COLOR", "1"), false},
		{"NO_COLOR empty", env("FORCE_COLOR", "1", "NO_COLOR", ""), true},
	} {
		if got := useColour(&buf, tc.env); got != tc.want {
			t.Errorf("%s: useColour = %v, want %v", tc.label, got, tc.want)
		}
	}
	devnull, err := os.Open(os.DevNull) // a character device, as a terminal is
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if !useColour(devnull, env()) || useColour(devnull, env("NO_COLOR", "1")) {
		t.Errorf("a character device: colour %v, with NO_COLOR %v", useColour(devnull, env()),
			useColour(devnull, env("NO_COLOR", "1")))
	}
}

// TestColourOnStdoutNotInFiles: with FORCE_COLOR, stdout's text report has PASS or FAIL and the
// blocking findings coloured; the --report text file of the same run has no escape; NO_COLOR
// takes the colour away.
func TestColourOnStdoutNotInFiles(t *testing.T) {
	file := filepath.Join(t.TempDir(), "report.txt")
	args := []string{"run", "--checks", "5", "--seed", "3", "--tool", "read", "--validator", execSpec(t),
		"--report", "text=" + file}
	t.Setenv("FORCE_COLOR", "1")
	r := must(t, 1, args...)
	if !strings.HasPrefix(r.stdout, ansiRed+"FAIL"+ansiReset+"  validator ") {
		t.Errorf("the headline is not coloured: %q", clip(r.stdout))
	}
	if !strings.Contains(r.stdout, "\n"+ansiRed+"FAIL read: ") {
		t.Errorf("no blocking finding coloured: %q", clip(r.stdout))
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "\x1b[") || !strings.HasPrefix(string(data), "FAIL  validator ") {
		t.Errorf("the --report file is coloured: %q", clip(string(data)))
	}
	t.Setenv("NO_COLOR", "1")
	if r := must(t, 1, args...); strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("NO_COLOR: stdout coloured: %q", clip(r.stdout))
	}
}

func TestColourTextPass(t *testing.T) {
	got := string(colourText([]byte("PASS  validator reference\nnote x\n")))
	if got != ansiGreen+"PASS"+ansiReset+"  validator reference\nnote x\n" {
		t.Errorf("colourText: %q", got)
	}
}
