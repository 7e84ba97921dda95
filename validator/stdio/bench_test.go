//go:build unix

package stdio

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolproof/toolproof/validator"
)

const replayBatch = 1024

// replayCases are small argument texts, half valid and half not for readTool.
func replayCases(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		if i%2 == 0 {
			out[i] = []byte(fmt.Sprintf(`{"path":"a","limit":%d}`, i))
		} else {
			out[i] = []byte(fmt.Sprintf(`{"path":"a","limit":"%d"}`, i))
		}
	}
	return out
}

func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// replay runs b.N cases through CheckBatch in batches and reports cases/s, the harness's CPU
// per case and, once the child has exited, the child's CPU per case.
func replay(b *testing.B, opts Options) {
	c, err := Start(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	g, err := c.Compile(readTool)
	if err != nil {
		b.Fatal(err)
	}
	bg := g.(validator.BatchGate)
	texts := replayCases(replayBatch)
	bg.CheckBatch(context.Background(), texts) // warm up the child
	children := cpuTime(syscall.RUSAGE_CHILDREN)

	b.ResetTimer()
	start, parent := time.Now(), cpuTime(syscall.RUSAGE_SELF)
	faults := 0
	for done := 0; done < b.N; done += replayBatch {
		for _, v := range bg.CheckBatch(context.Background(), texts[:min(replayBatch, b.N-done)]) {
			if v.Fault != "" {
				faults++
			}
		}
	}
	elapsed, parent := time.Since(start), cpuTime(syscall.RUSAGE_SELF)-parent
	b.StopTimer()
	if faults > 0 {
		b.Fatalf("%d faults", faults)
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	children = cpuTime(syscall.RUSAGE_CHILDREN) - children
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "cases/s")
	b.ReportMetric(float64(parent.Nanoseconds())/float64(b.N), "parent-cpu-ns/case")
	b.ReportMetric(float64(children.Nanoseconds())/float64(b.N), "child-cpu-ns/case")
}

// BenchmarkReplay measures the client against the fake correct adapter (a Go process).
func BenchmarkReplay(b *testing.B) {
	replay(b, Options{
		Command: fakeCommand(),
		Env:     fakeEnviron(fakeEnv + "=correct"),
		Stderr:  newSyncBuffer(),
	})
}

// BenchmarkReplayAjv measures the client against the Node.js Ajv adapter of validator/node. It
// is skipped when node or validator/node/node_modules is missing, unless TOOLPROOF_REQUIRE_NODE=1.
func BenchmarkReplayAjv(b *testing.B) {
	node, err := exec.LookPath("node")
	missing := ""
	switch {
	case err != nil:
		missing = "node is not on PATH"
	default:
		if _, err := os.Stat(filepath.Join("..", "node", "node_modules")); err != nil {
			missing = "validator/node/node_modules is missing (run `cd validator/node && npm ci`)"
		}
	}
	if missing != "" {
		if os.Getenv("TOOLPROOF_REQUIRE_NODE") == "1" {
			b.Fatalf("TOOLPROOF_REQUIRE_NODE=1 but %s", missing)
		}
		b.Skipf("skipped: %s", missing)
	}
	replay(b, Options{
		Command: []string{node, filepath.Join("..", "node", "adapters", "ajv.mjs")},
		Stderr:  newSyncBuffer(),
	})
}
