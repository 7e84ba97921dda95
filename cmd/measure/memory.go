package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// memory runs the reference gate over a tool file, as `toolproof run` does (GOGC=400), and
// reports the largest live heap seen: the heap marked live by a collection (the runtime's
// /gc/heap/live:bytes, read every 10 ms). The resident set of the command adds the collector's
// headroom to this.
func memory(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	checks := fs.Int("checks", 20, "checks per tool")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("memory: want one tool file")
	}
	set, err := tool.Load(fs.Arg(0))
	if err != nil {
		return err
	}
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	peak := uint64(0)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	rep, err := harness.Run(set.Tools, oracle.Reference{}, harness.Options{Checks: *checks, Seed: 1})
	runtime.GC() // the last reading: what the run still holds at its end
	close(stop)
	<-stopped
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: %d tools, %d cases, largest live heap %.1f MB\n", fs.Arg(0), len(set.Tools),
		rep.Cases, float64(peak)/(1<<20))
	return nil
}
