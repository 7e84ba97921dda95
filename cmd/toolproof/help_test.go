package main

import (
	"flag"
	"regexp"
	"strings"
	"testing"
)

// TestHelpOnStdout: every subcommand's --help and -h print its synopsis and flags on stdout and
// exit 0, with nothing on stderr (so that `toolproof run --help | less` shows them).
func TestHelpOnStdout(t *testing.T) {
	for name := range commands() {
		for _, h := range [][]string{{name, "--help"}, {name, "-h"}, {"help", name}} {
			r := must(t, 0, h...)
			if !strings.HasPrefix(r.stdout, "Usage:\n  toolproof "+name) || r.stderr != "" {
				t.Errorf("toolproof %s: stdout %q, stderr %q; want the help on stdout only", strings.Join(h, " "),
					clip(r.stdout), r.stderr)
			}
		}
	}
	r := must(t, 0, "run", "--help")
	for _, want := range []string{"\n  --validator SPEC\n", "\n  --checks N\n",
		"\n  --timeout DURATION\n", "\n  --close\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("run --help does not show %q:\n%s", want, clip(r.stdout))
		}
	}
}

// kind is what a flag's placeholder must look like: a noun in capitals (PATH, N, FORMAT=FILE,
// REPORT.json), never a value or a phrase.
var kind = regexp.MustCompile(`^[A-Z][A-Z/=_]*(\.json)?$`)

// TestFlagPlaceholdersAreKinds checks every flag of every subcommand that takes a value: the
// placeholder its help shows (flag.UnquoteUsage) is a kind.
func TestFlagPlaceholdersAreKinds(t *testing.T) {
	for name, c := range flagged() {
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		c.flags(fs)
		fs.VisitAll(func(f *flag.Flag) {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				return
			}
			if k, _ := flag.UnquoteUsage(f); !kind.MatchString(k) {
				t.Errorf("toolproof %s --%s: the placeholder is %q, want a kind such as NAME, FILE or N",
					name, f.Name, k)
			}
		})
	}
}

// TestFlagErrorsPointAtHelp: an unknown flag, a flag without its value and a refused argument
// print the error and one line pointing at --help on stderr, exit 2, and list no flags.
func TestFlagErrorsPointAtHelp(t *testing.T) {
	for name := range flagged() {
		want := "toolproof: flag provided but not defined: -no-such-flag\nrun 'toolproof " + name +
			" --help' for the flags\n"
		if r := must(t, 2, name, "--no-such-flag"); r.stderr != want || r.stdout != "" {
			t.Errorf("toolproof %s --no-such-flag: stderr %q, stdout %q; want stderr %q", name,
				r.stderr, r.stdout, want)
		}
	}
	for _, args := range [][]string{{"run", "--checks"}, {"run", "--checks", "many"}, {"run", "stray"},
		{"audit", "stray"}, {"validators", "stray"}} {
		r := must(t, 2, args...)
		lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
		hint := "run 'toolproof " + args[0] + " --help' for the flags"
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "toolproof: ") || lines[1] != hint {
			t.Errorf("toolproof %s: stderr %q; want the error and %q", strings.Join(args, " "), r.stderr, hint)
		}
	}
}
