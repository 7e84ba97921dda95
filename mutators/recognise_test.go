package mutators_test

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
)

// roundTrip counts, for each class and variant, the cases its mutator made and those the
// classifier read back otherwise, with a few samples.
type roundTrip struct {
	made, wrong map[string]int
	samples     []string
	valid, bad  int
}

func newRoundTrip() *roundTrip {
	return &roundTrip{made: map[string]int{}, wrong: map[string]int{}}
}

// check classifies one case of its mutator and records whether it came back as made.
func (rt *roundTrip) check(ctx *mutators.Context, tool string, m corpus.Case) {
	key := string(m.Class) + "/" + m.Variant
	rt.made[key]++
	got := ctx.Recognise(m.Args)
	if got.Names(m) {
		return
	}
	rt.wrong[key]++
	if rt.wrong[key] <= 2 && len(rt.samples) < 60 {
		rt.samples = append(rt.samples,
			fmt.Sprintf("%s %s at %q (%s): %q -> %s %+v %v", tool, key, m.Path, m.Expect, m.Args, got.Reading,
				got.Distortions, got.Issues))
	}
}

// checkValid classifies a valid value's text: valid, or either when its numbers read as doubles
// change its verdict.
func (rt *roundTrip) checkValid(ctx *mutators.Context, tool string, text []byte, either bool) {
	got := ctx.Recognise(text)
	want := mutators.Valid
	if either {
		want = mutators.Either
	}
	if got.Reading == want && len(got.Distortions) == 0 {
		rt.valid++
		return
	}
	rt.bad++
	if rt.bad <= 3 && len(rt.samples) < 60 {
		rt.samples = append(rt.samples,
			fmt.Sprintf("%s valid %q -> %s %+v %v", tool, text, got.Reading, got.Distortions, got.Issues))
	}
}

// add counts what other counted, and keeps its samples while there is room for them.
func (rt *roundTrip) add(other *roundTrip) {
	for k, n := range other.made {
		rt.made[k] += n
	}
	for k, n := range other.wrong {
		rt.wrong[k] += n
	}
	rt.valid += other.valid
	rt.bad += other.bad
	rt.samples = append(rt.samples, other.samples[:min(len(other.samples), 60-len(rt.samples))]...)
}

func (rt *roundTrip) report(t *testing.T) {
	t.Helper()
	var keys []string
	for k := range rt.made {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var lines []string
	for _, k := range keys {
		if rt.wrong[k] > 0 {
			lines = append(lines, fmt.Sprintf("%s: %d of %d read back otherwise", k, rt.wrong[k], rt.made[k]))
		}
	}
	if len(lines) > 0 || rt.bad > 0 {
		t.Errorf("valid values: %d classified otherwise (of %d)\n%s\nsamples:\n%s", rt.bad, rt.bad+rt.valid,
			strings.Join(lines, "\n"), strings.Join(rt.samples, "\n"))
	}
}

// roundTripSeeds and roundTripFirst choose the draws of TestEveryMutationClassifiesBack: seeds
// first to first+seeds-1 for every tool, the same every run (try others with -roundtrip.first).
var (
	roundTripSeeds = flag.Int("roundtrip.seeds", 100, "draws a tool in TestEveryMutationClassifiesBack")
	roundTripFirst = flag.Int("roundtrip.first", 0, "the first seed of TestEveryMutationClassifiesBack")
)

// TestEveryMutationClassifiesBack is the property that keeps the classifier and the mutators one
// definition: over the corpus, every case a mutator makes classifies back to its own class and
// variant at its place, and every valid value classifies as valid. The draws are fixed seeds,
// so the test reads the same cases every run.
func TestEveryMutationClassifiesBack(t *testing.T) {
	fs := fixtures(t)
	// Each tool is drawn in a goroutine of its own (its Context and Gatekeeper are its own) and
	// counted apart; the counts are then added in the corpus's order, so the report is the same
	// however the goroutines ran.
	per := make([]*roundTrip, len(fs))
	var wg sync.WaitGroup
	for i, f := range fs {
		per[i] = newRoundTrip()
		rtp := per[i]
		wg.Go(func() {
			draws := rapid.Custom(func(rt *rapid.T) int {
				v, ok := f.gen.Draw(rt)
				if !ok {
					return 0
				}
				tg := f.ctx.Target(v)
				rtp.checkValid(f.ctx, f.gk.Tool().Name, tg.Text, tg.DoublesDiffer())
				for _, m := range mutators.All() {
					if mu, ok := m.Mutate(rt, tg); ok {
						rtp.check(f.ctx, f.gk.Tool().Name, mu)
					}
				}
				return 0
			})
			for seed := *roundTripFirst; seed < *roundTripFirst+*roundTripSeeds; seed++ {
				draws.Example(seed)
			}
		})
	}
	wg.Wait()
	rtp := newRoundTrip()
	for _, r := range per {
		rtp.add(r)
	}
	rtp.report(t)
	for _, c := range mutators.Classes() {
		n := 0
		for k, m := range rtp.made {
			if strings.HasPrefix(k, string(c)+"/") {
				n += m
			}
		}
		if n == 0 {
			t.Errorf("%s made no case on the corpus", c)
		}
	}
}
