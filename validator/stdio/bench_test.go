//go:build unix

package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/toolproof/toolproof/internal/cputime"
	"github.com/toolproof/toolproof/internal/needs"
	"github.com/toolproof/toolproof/validator"
)

// replaySize is how many cases the replay benchmarks generate; b.N cases replay them in order,
// all in one CheckBatch call (as the harness checks all cases of a tool), again from the start
// when b.N is larger.
const replaySize = 100_000

var (
	replayOnce  sync.Once
	replayArgs  [][]byte
	replayValid []bool // the verdict of a correct JSON Schema validator for replayTool
)

// replayCases generates replaySize small argument texts for replayTool, about half of them
// valid, with their expected validity. The same seed gives the same cases every run.
func replayCases() ([][]byte, []bool) {
	replayOnce.Do(func() {
		rng := rand.New(rand.NewPCG(1, 2))
		paths := []string{"a", "src/main.go", "README.md", "docs/guide/intro.txt", "é/ü.txt", `dir\file`, "x y"}
		path := func() string {
			b, _ := json.Marshal(paths[rng.IntN(len(paths))])
			return string(b)
		}
		replayArgs = make([][]byte, replaySize)
		replayValid = make([]bool, replaySize)
		for i := range replayArgs {
			var s string
			valid := false
			switch k := rng.IntN(20); {
			case k < 4:
				s, valid = `{"path":`+path()+`}`, true
			case k < 8:
				s, valid = fmt.Sprintf(`{"path":%s,"limit":%d}`, path(), 1+rng.IntN(2000)), true
			case k < 10:
				s, valid = fmt.Sprintf(`{"limit":%d,"path":%s}`, 1+rng.IntN(2000), path()), true
			case k == 10:
				s = `{"path":""}` // minLength
			case k == 11:
				s = fmt.Sprintf(`{"path":%s,"limit":%d}`, path(), []int{0, -1, 2001, 99999}[rng.IntN(4)]) // range
			case k == 12:
				s = fmt.Sprintf(`{"path":%s,"limit":"%d"}`, path(), 1+rng.IntN(2000)) // a string
			case k == 13:
				s = fmt.Sprintf(`{"path":%s,"limit":%d.5}`, path(), rng.IntN(2000)) // not an integer
			case k == 14:
				s = fmt.Sprintf(`{"limit":%d}`, 1+rng.IntN(2000)) // required
			case k == 15:
				s = `{"path":` + path() + `,"recursive":true}` // additionalProperties
			case k == 16:
				s = fmt.Sprintf(`{"path":%d}`, rng.IntN(100)) // not a string
			case k == 17:
				s = `{"path":` + path() + `,` // not JSON
			case k == 18:
				s = []string{`[]`, `"read"`, `null`, `42`}[rng.IntN(4)] // not an object
			default:
				s = `{"path":null,"limit":null}`
			}
			replayArgs[i], replayValid[i] = []byte(s), valid
		}
	})
	return replayArgs, replayValid
}

// self and children are the CPU times of this process and of its ended children.
func self() time.Duration {
	d, _ := cputime.Self()
	return d
}

func children() time.Duration {
	d, _ := cputime.Children()
	return d
}

// processCPU is the CPU time a running process has used so far, from /proc (Linux).
func processCPU(pid int) (time.Duration, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The fields after the command name, which is in parentheses: state is field 3, utime 14,
	// stime 15, in clock ticks of 1/100 s.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	stime, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}

// childrenCPU is the CPU time the current children of c have used so far.
func childrenCPU(c *Client) (time.Duration, bool) {
	c.mu.Lock()
	var pids []int
	for _, p := range c.procs {
		if p.cur == nil {
			c.mu.Unlock()
			return 0, false
		}
		pids = append(pids, p.cur.proc.pid())
	}
	c.mu.Unlock()
	var sum time.Duration
	for _, pid := range pids {
		d, ok := processCPU(pid)
		if !ok {
			return 0, false
		}
		sum += d
	}
	return sum, true
}

// replay replays b.N cases through CheckBatch and reports cases/s, the harness's CPU per case
// and the children's CPU per case. With checkVerdicts, each verdict must be replayValid's.
func replay(b *testing.B, opts Options, checkVerdicts bool) {
	args, want := replayCases()
	c, err := Start(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	g, err := c.Compile(replayTool)
	if err != nil {
		b.Fatal(err)
	}
	bg := g.(validator.BatchGate)
	for range 3 {
		bg.CheckBatch(context.Background(), args[:5000]) // warm up the children (a JIT, say)
	}
	childrenAt := children()
	childStart, exact := childrenCPU(c)

	b.ResetTimer()
	start, parent := time.Now(), self()
	faults, wrong := 0, 0
	for done := 0; done < b.N; {
		n := min(replaySize, b.N-done)
		for i, v := range bg.CheckBatch(context.Background(), args[:n]) {
			switch {
			case v.Fault != "":
				faults++
			case checkVerdicts && v.Valid != want[i]:
				wrong++
			}
		}
		done += n
	}
	elapsed, parent := time.Since(start), self()-parent
	childEnd, exactEnd := childrenCPU(c)
	b.StopTimer()
	if faults > 0 || wrong > 0 {
		b.Fatalf("%d faults, %d wrong verdicts (stats %+v)", faults, wrong, c.Stats())
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	// Without /proc, the children's CPU is known once they have exited, start-up included.
	childCPU := children() - childrenAt
	if exact && exactEnd {
		childCPU = childEnd - childStart
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "cases/s")
	b.ReportMetric(float64(parent.Nanoseconds())/float64(b.N), "parent-cpu-ns/case")
	b.ReportMetric(float64(childCPU.Nanoseconds())/float64(b.N), "child-cpu-ns/case")
}

// replayEach replays through command (with env, when not nil), with one and two processes, in
// sub-benchmarks named for them.
func replayEach(b *testing.B, command, env []string, checkVerdicts bool) {
	for _, procs := range []int{1, 2} {
		b.Run(fmt.Sprintf("processes=%d", procs), func(b *testing.B) {
			replay(b, Options{Command: command, Env: env, Processes: procs, Stderr: newSyncBuffer()}, checkVerdicts)
		})
	}
}

// BenchmarkReplay measures the client against the fake correct adapter (a Go process), with one
// and two processes.
func BenchmarkReplay(b *testing.B) {
	replayEach(b, fakeCommand(), fakeEnviron(fakeEnv+"=correct"), false)
}

// BenchmarkReplayFast measures the client alone: its child (a Go process) accepts every call
// after reading its id, so that the client is the bottleneck.
func BenchmarkReplayFast(b *testing.B) {
	replayEach(b, fakeCommand(), fakeEnviron(fakeEnv+"=fast"), false)
}

// BenchmarkReplayAjv measures the client against the Node.js Ajv adapter of validator/node, with
// one and two processes, and checks every verdict. It is skipped when node or
// validator/node/node_modules is missing, unless TOOLPROOF_REQUIRE_NODE=1.
func BenchmarkReplayAjv(b *testing.B) {
	dir := filepath.Join("..", "node")
	needs.Met(b, "TOOLPROOF_REQUIRE_NODE", "the Ajv adapter", needs.Node(dir, "validator/node"))
	replayEach(b, []string{"node", filepath.Join(dir, "adapters", "ajv.mjs")}, nil, true)
}
