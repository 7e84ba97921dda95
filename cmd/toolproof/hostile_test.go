//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The hostile-input corpus: tool files, directories and reports built to break toolproof
// (testdata/hostile at the top of the module, and bigger ones written here, small but of the
// same shape as the ones that once took minutes or gigabytes). Each runs the built command
// with a time limit and must end with the exit status and words given, within the memory
// limit, read from the process's own accounting (its peak resident set).
const (
	// hostileTime: each case ends well within it (the slowest, an audit stopped by its budget,
	// takes about 4 s of CPU).
	hostileTime = time.Minute
	hostileRSS  = 512 << 20 // bytes: the most memory one case may hold at its peak
)

type hostileCase struct {
	name string
	args []string
	code int
	want string // in stdout or stderr
	not  string // in neither
}

// orphanToken is in the command line of a process a hostile validator leaves in its group.
const orphanToken = "3017.5"

func TestHostileCorpus(t *testing.T) {
	t.Parallel()
	bin := toolproofBinary(t)
	dir := t.TempDir()
	hostile := func(name string) string { return filepath.Join("..", "..", "testdata", "hostile", name) }
	cs := []hostileCase{
		{"any parameters", []string{"run", "--validator", "reference", "--checks", "20", "--seed", "1", "--tools",
			hostile("params.json")}, 0, "loop of $ref", ""},
		{"control characters",
			[]string{"run", "--validator", "reference", "--checks", "5", "--tools",
				hostile("controls.json")}, 0, `esc\u001B[2K\rPASS`, "\x1b"},
		{"duplicate keys", []string{"run", "--tools", hostile("duplicate_keys.json")}, 2,
			"duplicate_keys.json:2:39: at /0/parameters/properties/x: a key repeated", ""},
		{"invalid UTF-8", []string{"gen", "--tools", hostile("invalid_utf8.json")}, 2, "invalid UTF-8", ""},
		{"remote references", []string{"run", "--validator", "reference", "--tools", hostile("remote.json")}, 2,
			"$schema http://127.0.0.1:1/schema", ""},
		{"forged shard count", []string{"merge", hostile("merge_forged_of.json")}, 2,
			"and 999999999999999989 more missing", "panic"},
		{"deep schema", []string{"run", "--validator", "reference", "--checks", "5", "--tools",
			writeFile(t, dir, "deep.json", deepSchema(4900, 100))}, 2, "nesting deeper than", ""},
		{"enum of 100k", []string{"run", "--validator", "reference", "--checks", "5", "--seed", "1", "--tools",
			writeFile(t, dir, "enum.json", bigEnum(100000))}, 0, "PASS", ""},
		{"minProperties 100000",
			[]string{"run", "--validator", "reference", "--checks", "5", "--tools", writeFile(t, dir, "minprops.json",
				`[{"name":"huge","parameters":{"type":"object","minProperties":100000}},{"name":"ok",`+
					`"parameters":{"type":"object"}}]`)}, 0, "generate.MaxMinProperties", ""},
		{"$refs that fan out",
			[]string{"run", "--validator", "reference", "--checks", "5", "--max-time", "3s", "--tools",
				writeFile(t, dir, "fan2.json",
					"["+readHostile(t, "fan.json")+
						`,{"name":"ok","parameters":{"type":"object"}}]`)}, 0, "fan (", "INTERRUPTED"},
		{"gen of $refs that fan out", []string{"gen", "--tools", hostile("fan.json")}, 2, "oracle.MaxEvaluations", ""},
		{"audit of $refs that fan out", []string{"audit", "--tools", hostile("fan.json")}, 2,
			"oracle.MaxEvaluations", ""},
		{"minItems 200000000",
			[]string{"run", "--validator", "reference", "--checks", "5", "--tools", writeFile(t, dir, "minitems.json",
				`[{"name":"big","parameters":{"type":"object","properties":{"a":{"type":"array",`+
					`"minItems":200000000}},`+
					`"required":["a"]}},`+
					`{"name":"ok","parameters":{"type":"object"}}]`)}, 0, "generate.MaxMinItems", ""},
		{"20k tools of one name",
			[]string{"run", "--validator", "reference", "--checks", "2", "--max-time", "100ms", "--format", "json",
				"--tools", writeFile(t, dir, "same.json",
					sameName(20000))}, exitInterrupted, `"interrupted": "stopped after --max-time 100ms`, ""},
		{"audit of 1000 properties", []string{"audit", "--tools", writeFile(t, dir, "wide.json", wideTools(1000))}, 1,
			"audit.MaxOracleBytes", ""},
		{"blank lines", []string{"run", "--validator", "reference", "--checks", "5", "--tools",
			writeFile(t, dir, "blank.jsonl",
				strings.Repeat("\n", 20<<20)+`{"name":"a","parameters":{"type":"object"}}`+"\n")}, 0, "PASS", ""},
		{"FIFO and /dev/zero in a directory",
			[]string{"run", "--validator", "reference", "--checks", "5", "--tools",
				specialDir(t)}, 0, "not a regular file (a FIFO)", ""},
		{"/dev/zero named", []string{"run", "--tools", "/dev/zero"}, 2, "tool.MaxFileSize", ""},
		{"validator forks a child and exits",
			[]string{"run", "--tools", hostile("params.json"), "--validator",
				"exec:sh -c 'sleep " + orphanToken + " & exit 0'"}, 2, "died before answering hello", ""},
		{"validator writes a 40 MB line",
			[]string{"run", "--tools", hostile("params.json"), "--validator",
				`exec:sh -c 'head -c 40000000 /dev/zero | tr "\0" x; echo'`}, 2, "stdio.MaxLineSize", ""},
	}
	var mu sync.Mutex // guards the worst case, written by the cases side by side
	var worstTime time.Duration
	var worstRSS int64
	var worst [2]string
	// Each case is a process of its own (nothing of rapid's flags in this one): they run side
	// by side, and the group ends when the last one does.
	t.Run("cases", func(t *testing.T) {
		for _, c := range cs {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				hostileCaseRun(t, bin, c, func(elapsed time.Duration, rss int64) {
					mu.Lock()
					defer mu.Unlock()
					if elapsed > worstTime {
						worstTime, worst[0] = elapsed, c.name
					}
					if rss > worstRSS {
						worstRSS, worst[1] = rss, c.name
					}
				})
			})
		}
	})
	out, _ := exec.Command("pgrep", "-f", "sleep "+orphanToken).Output()
	killOrphans(t, pidList(string(out)))
	t.Logf("worst time %v (%s), worst peak memory %d MB (%s)", worstTime.Round(10*time.Millisecond), worst[0],
		worstRSS>>20, worst[1])
}

// readHostile is the text of the file name of testdata/hostile.
func readHostile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hostile", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// hostileCaseRun runs case c with the built command bin and judges its exit status, output
// and peak memory; seen is given its time and peak.
func hostileCaseRun(t *testing.T, bin string, c hostileCase, seen func(time.Duration, int64)) {
	elapsed, rss, r := runLimited(t, bin, c.args)
	if r.code != c.code {
		t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, c.code, clip(r.stdout), clip(r.stderr))
	}
	out := r.stdout + r.stderr
	if !strings.Contains(out, c.want) {
		t.Errorf("no %q in the output:\n%s", c.want, clip(out))
	}
	if c.not != "" && strings.Contains(out, c.not) {
		t.Errorf("%q in the output:\n%s", c.not, clip(out))
	}
	if rss > hostileRSS {
		t.Errorf("peak memory %d MB, more than %d MB", rss>>20, hostileRSS>>20)
	}
	t.Logf("%v, %d MB", elapsed.Round(10*time.Millisecond), rss>>20)
	seen(elapsed, rss)
}

// runLimited runs the command with args, killed after hostileTime, and returns how long it
// took and its peak resident set in bytes. It runs under testdata/peak, which reads the peak:
// read here, it would hold this test process's memory too (Linux counts in a process's peak
// the memory of the one that started it, up to its exec).
func runLimited(t *testing.T, bin string, args []string) (time.Duration, int64, result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileTime)
	defer cancel()
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.CommandContext(ctx, goBuild(t, "peak", "./testdata/peak"), append([]string{peakFile, bin}, args...)...)
	// peak and toolproof are killed together at the limit.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("toolproof %s: still running after %v", strings.Join(args, " "), hostileTime)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	kb, err := os.ReadFile(peakFile)
	if err != nil {
		t.Fatalf("toolproof %s: no peak memory read: %v\n%s", strings.Join(args, " "), err, clip(stderr.String()))
	}
	rss, err := strconv.ParseInt(strings.TrimSpace(string(kb)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	rss <<= 10 // Linux gives kilobytes
	return elapsed, rss, result{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

// deepSchema is a tool nested depth levels deep in properties, each named with width bytes.
func deepSchema(depth, width int) string {
	var b strings.Builder
	b.WriteString(`[{"name":"deep","parameters":`)
	for i := 0; i < depth; i++ {
		name := fmt.Sprintf("k%d_", i)
		fmt.Fprintf(&b, `{"type":"object","properties":{"%s%s":`, name, strings.Repeat("x", max(width-len(name), 0)))
	}
	b.WriteString(`{"type":"string"}`)
	b.WriteString(strings.Repeat("}}", depth))
	b.WriteString(`}]`)
	return b.String()
}

func bigEnum(n int) string {
	var b strings.Builder
	b.WriteString(`[{"name":"big_enum","parameters":{"type":"object","required":["e"],"properties":{"e":{"enum":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"v%d"`, i)
	}
	b.WriteString(`]}}}}]`)
	return b.String()
}

// wideTools is a tool of n required properties and a small one beside it.
func wideTools(n int) string {
	props := make([]string, n)
	names := make([]string, n)
	for i := range props {
		names[i] = fmt.Sprintf(`"p%d"`, i)
		props[i] = fmt.Sprintf(`"p%d":{"type":%q}`, i, []string{"string", "integer", "boolean"}[i%3])
	}
	return `[{"name":"wide","parameters":{"type":"object","properties":{` +
		strings.Join(props, ",") + `},"required":[` +
		strings.Join(names, ",") +
		`]}},{"name":"ok","parameters":{"type":"object","properties":{"a":{"type":"integer"}}}}]`
}

func sameName(n int) string {
	return "[" +
		strings.TrimSuffix(strings.Repeat(`{"name":"same","parameters":{"type":"object",`+
			`"properties":{"a":{"type":"integer"}}}},`, n), ",") + "]"
}

// specialDir is a tools directory with one good file, a FIFO nobody writes and a link to
// /dev/zero, both named as tool files.
func specialDir(t *testing.T) string {
	d := t.TempDir()
	writeFile(t, d, "ok.json", `{"name":"ok","parameters":{"type":"object","properties":{"a":{"type":"integer"}}}}`)
	if err := syscall.Mkfifo(filepath.Join(d, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(d, "zero.jsonl")); err != nil {
		t.Fatal(err)
	}
	return d
}
