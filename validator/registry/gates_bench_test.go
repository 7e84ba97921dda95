//go:build unix

package registry_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/internal/cputime"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/tool"
)

// BenchmarkGates runs the same tools (examples/native's read_file, set_labels and search, 400
// checks a tool, seed 1) against the reference in process, the ajv adapter (toolproof/1), the
// zod module node:examples/native/strict.mjs, and the MCP memory server (its own tools, 100
// checks, only the must-reject cases sent), in one invocation. Each iteration is one whole run
// (harness.Run) on a validator opened once. Reported per gate: cases/s (the cases the run
// judged, a second of wall time), sent/s (the cases sent to the gate), toolproof's own CPU per
// case (this process), the gate's CPU per case (its process and theirs), idle per case (the
// two cores' time neither used), and for an external gate: of-reference (its cases/s over the
// reference's on the same tools and options, run beside it in each iteration, in an order that
// turns), cpu:of-reference (the reference's CPU per case over toolproof's and the gate's
// together: the same ratio on cores that nothing else uses), cpu:own/reference (toolproof's own
// CPU per case over the reference run's), and its
// replay rate, sent/s when the same cases go to the same process in one CheckBatch a tool,
// measured after each run, with run/replay.
// Needs node and npm ci in validator/node, examples and validator/mcp/servers.
func BenchmarkGates(b *testing.B) {
	requireExamplesB(b)
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	strict := "node:" + filepath.Join(dir, "examples", "native", "strict.mjs")
	memory := filepath.Join(dir, "validator", "mcp", "servers", "node_modules", ".bin", "mcp-server-memory")
	b.Setenv("MEMORY_FILE_PATH", filepath.Join(b.TempDir(), "memory.jsonl"))
	o := newOpener()
	// The native module's tools, listed once: the tools every gate but the MCP server checks.
	zv, err := o.Open(strict)
	if err != nil {
		b.Fatal(err)
	}
	tools, err := zv.(validator.ToolSource).Tools()
	registry.Close(zv)
	if err != nil {
		b.Fatal(err)
	}
	for _, g := range []struct {
		name, spec string
		opts       harness.Options
	}{
		{"reference", "builtin:reference", harness.Options{Checks: 400, Seed: 1}},
		{"ajv", "ajv", harness.Options{Checks: 400, Seed: 1}},
		{"node-zod", strict, harness.Options{Checks: 400, Seed: 1}},
		{"mcp-memory", "mcp:'" + memory + "'", harness.Options{Checks: 100, Seed: 1, OnlyReject: true}},
	} {
		b.Run(g.name, func(b *testing.B) {
			v, err := o.Open(g.spec)
			if err != nil {
				b.Fatal(err)
			}
			defer registry.Close(v)
			ts := tools
			if src, ok := v.(validator.ToolSource); ok && g.name == "mcp-memory" {
				if ts, err = src.Tools(); err != nil {
					b.Fatal(err)
				}
			}
			benchGate(b, v, ts, g.opts)
		})
	}
}

// benchGate times b.N runs of tools against v and, for an external v, as many runs of the
// reference on the same tools, side by side in an order that turns, and the replay of the cases
// v was sent; it reports the metrics BenchmarkGates describes.
func benchGate(b *testing.B, v validator.Validator, tools []tool.Tool, opts harness.Options) {
	// One run records the cases the gate is sent (the same every run: the seed decides them).
	rec := &recorder{Validator: v, sent: map[string][][]byte{}}
	if _, err := harness.Run(tools, rec, opts); err != nil {
		b.Fatal(err)
	}
	_, inProcess := v.(oracle.Reference)
	var gate, ref runCost
	var replayWall, replayChild time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if inProcess {
			gate.run(b, tools, v, opts)
			continue
		}
		if i%2 == 0 {
			gate.run(b, tools, v, opts)
			ref.run(b, tools, oracle.Reference{}, opts)
		} else {
			ref.run(b, tools, oracle.Reference{}, opts)
			gate.run(b, tools, v, opts)
		}
		d0 := descendants()
		replayWall += replay(b, v, tools, rec)
		replayChild += descendants() - d0
	}
	b.StopTimer()
	sent := b.N * rec.total()
	perCase := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(gate.cases) }
	rate := float64(gate.cases) / gate.wall.Seconds()
	b.ReportMetric(rate, "cases/s")
	b.ReportMetric(float64(sent)/gate.wall.Seconds(), "sent/s")
	b.ReportMetric(perCase(gate.own), "own-cpu-ns/case")
	b.ReportMetric(perCase(gate.child), "gate-cpu-ns/case")
	b.ReportMetric(max(0, perCase(2*gate.wall-gate.own-gate.child)), "idle-ns/case")
	if inProcess {
		return
	}
	refRate := float64(ref.cases) / ref.wall.Seconds()
	b.ReportMetric(rate/refRate, "of-reference")
	b.ReportMetric((float64(gate.own)/float64(gate.cases))/(float64(ref.own)/float64(ref.cases)), "cpu:own/reference")
	// The rate of the run over the reference's when both use all the machine's cores: CPU per
	// case of the reference over that of toolproof and the gate together.
	b.ReportMetric((float64(ref.own)/float64(ref.cases))/(float64(gate.own+gate.child)/float64(gate.cases)),
		"cpu:of-reference")
	if replayWall > 0 {
		replayRate := float64(sent) / replayWall.Seconds()
		b.ReportMetric(replayRate, "replay-sent/s")
		b.ReportMetric(float64(sent)/gate.wall.Seconds()/replayRate, "run/replay")
		b.ReportMetric(float64(replayChild.Nanoseconds())/float64(sent), "replay-gate-cpu-ns/sent")
		b.ReportMetric(float64(gate.child.Nanoseconds())/float64(sent), "gate-cpu-ns/sent")
	}
}

// runCost sums the runs of one validator: wall time, this process's CPU, its descendants' CPU
// and the cases judged.
type runCost struct {
	wall, own, child time.Duration
	cases            int
}

func (c *runCost) run(b *testing.B, tools []tool.Tool, v validator.Validator, opts harness.Options) {
	c0, d0, t0 := self(), descendants(), time.Now()
	rep, err := harness.Run(tools, v, opts)
	c.wall += time.Since(t0)
	c.own += self() - c0
	c.child += descendants() - d0
	if err != nil {
		b.Fatal(err)
	}
	c.cases += rep.Cases
}

// replay sends the recorded cases of each tool to a gate of v, one CheckBatch a tool, and
// returns the wall time it took.
func replay(b *testing.B, v validator.Validator, tools []tool.Tool, rec *recorder) time.Duration {
	var gates []validator.BatchGate
	var args [][][]byte
	for _, t := range tools {
		g, err := v.Compile(t)
		if err != nil {
			b.Fatal(err)
		}
		bg, ok := g.(validator.BatchGate)
		if !ok {
			b.Fatalf("%s: not a batch gate", v.Name())
		}
		gates, args = append(gates, bg), append(args, rec.sent[t.Name])
	}
	t0 := time.Now()
	for i, g := range gates {
		if len(args[i]) > 0 {
			g.CheckBatch(context.Background(), args[i])
		}
	}
	return time.Since(t0)
}

// recorder is v, recording the argument texts its gates are sent, by tool.
type recorder struct {
	validator.Validator
	mu   sync.Mutex
	sent map[string][][]byte
}

func (r *recorder) Compile(t tool.Tool) (validator.Gate, error) {
	g, err := r.Validator.Compile(t)
	if err != nil {
		return nil, err
	}
	return &recordGate{g, t.Name, r}, nil
}

func (r *recorder) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, a := range r.sent {
		n += len(a)
	}
	return n
}

type recordGate struct {
	validator.Gate
	tool string
	r    *recorder
}

func (g *recordGate) note(args ...[]byte) {
	g.r.mu.Lock()
	defer g.r.mu.Unlock()
	g.r.sent[g.tool] = append(g.r.sent[g.tool], args...)
}

func (g *recordGate) Check(ctx context.Context, args []byte) validator.Verdict {
	g.note(args)
	return g.Gate.Check(ctx, args)
}

func (g *recordGate) CheckBatch(ctx context.Context, args [][]byte) []validator.Verdict {
	g.note(args...)
	if bg, ok := g.Gate.(validator.BatchGate); ok {
		return bg.CheckBatch(ctx, args)
	}
	out := make([]validator.Verdict, len(args))
	for i, a := range args {
		out[i] = g.Gate.Check(ctx, a)
	}
	return out
}

func self() time.Duration {
	d, _ := cputime.Self()
	return d
}

// descendants is the CPU time the running descendants of this process have used so far, from
// /proc (Linux): the adapters and servers, and whatever they started.
func descendants() time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	cpu := map[int]time.Duration{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(data[i+1:])
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		ut, _ := strconv.ParseInt(string(f[11]), 10, 64)
		st, _ := strconv.ParseInt(string(f[12]), 10, 64)
		parent[pid] = ppid
		cpu[pid] = time.Duration(ut+st) * 10 * time.Millisecond
	}
	me := os.Getpid()
	var sum time.Duration
	for pid, d := range cpu {
		for p := parent[pid]; p != 0; p = parent[p] {
			if p == me {
				sum += d
				break
			}
		}
	}
	return sum
}

func requireExamplesB(b *testing.B) {
	for _, p := range []string{"validator/node/node_modules", "examples/node_modules",
		"validator/mcp/servers/node_modules"} {
		if _, err := os.Stat(filepath.Join("..", "..", p)); err != nil {
			if os.Getenv("TOOLPROOF_REQUIRE_NODE") == "1" {
				b.Fatalf("TOOLPROOF_REQUIRE_NODE=1 but %s is missing (npm ci there)", p)
			}
			b.Skipf("skipped: %s is missing (npm ci there)", p)
		}
	}
}
