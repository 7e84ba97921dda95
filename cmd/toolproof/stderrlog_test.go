package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestValidatorStderrCaptured: a validator's stderr goes to a file named on stderr once and under
// the text report, while its toolproof lines still show on stderr; --validator-stderr=pass passes
// it all through.
func TestValidatorStderrCaptured(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	args := []string{"run", "--checks", "3", "--seed", "1", "--tool", "read", "--validator",
		execSpec(t, "-chatter", "500")}
	r := must(t, 1, args...)
	if strings.Contains(r.stderr, "thinking") {
		t.Errorf("the validator's stderr passed through:\n%s", clip(r.stderr))
	}
	if !strings.Contains(r.stderr, "toolproof adapter: a note of the adapter's own") {
		t.Errorf("the adapter's own note is gone from stderr:\n%s", clip(r.stderr))
	}
	goesTo := regexp.MustCompile(`toolproof: the validator's stderr goes to (\S+) \(--validator-stderr=pass`)
	named := goesTo.FindAllStringSubmatch(r.stderr, -1)
	if len(named) != 1 {
		t.Fatalf("the file is named %d times on stderr, want once:\n%s", len(named), clip(r.stderr))
	}
	path := named[0][1]
	if !strings.Contains(r.stdout, "the validator's stderr, 500 lines so far: "+path) {
		t.Errorf("the text report does not name %s:\n%s", path, clip(r.stdout))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "thinking"); n != 500 || strings.Contains(string(data), "toolproof adapter") {
		t.Errorf("%s holds %d lines of the validator's stderr, want 500 and no toolproof line", path, n)
	}
	pass := must(t, 1, append(args, "--validator-stderr=pass")...)
	if strings.Count(pass.stderr, "thinking") != 500 || strings.Contains(pass.stdout, "the validator's stderr") {
		t.Errorf("--validator-stderr=pass: %d lines through, want 500; stdout names a file: %v",
			strings.Count(pass.stderr, "thinking"), strings.Contains(pass.stdout, "the validator's stderr"))
	}
	cli(t, append(args, "--validator-stderr=nowhere")...).want(t, 2)
	// A validator that dies: its crash finding shows the last lines of the captured stderr.
	crash := must(t, 1, "run", "--checks", "2", "--seed", "1", "--tool", "read", "--validator",
		execSpec(t, "-chatter", "30", "-die-on", "path"))
	if !strings.Contains(crash.stdout, "crash") || !strings.Contains(crash.stdout, "│ thinking 29 ─") {
		t.Errorf("the crash does not show the last lines of the validator's stderr:\n%s", clip(crash.stdout))
	}
}

// TestStderrLogEscapesToolproofLines: a line beginning "toolproof" is shown on stderr, but a
// validator can write one too, so its control characters are escaped; the line is kept whole,
// and a line cut at Close is shown too.
func TestStderrLogEscapesToolproofLines(t *testing.T) {
	var out strings.Builder
	l := newStderrLog(&out, t.TempDir())
	l.Write([]byte("toolproof: \x1b[2J\x1b]8;;http://x\x07PASS\u202e\ntoolproof adapter: \x1b[31m"))
	l.Close()
	want := "toolproof: \\u001B[2J\\u001B]8;;http://x\\u0007PASS\\u202E\ntoolproof adapter: \\u001B[31m\n"
	if out.String() != want {
		t.Errorf("stderr got\n%q, want\n%q", out.String(), want)
	}
}

// TestStartReasonShownOnce: an adapter that cannot start and says why in a toolproof line (as
// node: does for a .ts module on a Node.js without type stripping) has that line shown once, with
// or without --validator-stderr=pass: the error under it does not quote it again.
func TestStartReasonShownOnce(t *testing.T) {
	dir := t.TempDir()
	script := writeFile(t, dir, "refuse.sh", "#!/bin/sh\n"+
		`echo "toolproof fake: $1 is TypeScript, use Node.js 22.6 or later" >&2`+"\nexit 2\n")
	for _, extra := range [][]string{nil, {"--validator-stderr", "pass"}} {
		r := cli(t, append([]string{"run", "--validator", "exec:sh " + script + " mod.ts"}, extra...)...)
		if n := strings.Count(r.stderr, "mod.ts is TypeScript"); r.code != 2 || n != 1 {
			t.Errorf("%v: exit %d, the reason %d times, want exit 2 and once:\n%s", extra, r.code, n, r.stderr)
		}
		if !strings.Contains(r.stderr, "died before answering hello: the validator process ended (exit status 2)") {
			t.Errorf("%v: no error that says it ended:\n%s", extra, r.stderr)
		}
	}
}
