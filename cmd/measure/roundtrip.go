package main

import (
	"fmt"
	"io"
	"sort"
	"time"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// tripResult is one draw: whether the valid value read back as valid, and the mutations that
// did not read back as made.
type tripResult struct {
	made, wrong []string // class/variant
	validOK     bool
	samples     []string
}

// roundTrip measures the property TestEveryMutationClassifiesBack checks on the corpus, on other
// tool files (BFCL): n values a tool, every mutation of each classified, and every value.
func roundTrip(files []string, n int, w io.Writer) error {
	for _, file := range files {
		start := time.Now()
		set, err := tool.Load(file)
		if err != nil {
			return err
		}
		sib := mutators.SiblingsOf(set.Tools)
		made, wrong := map[string]int{}, map[string]int{}
		values, validWrong := 0, 0
		var samples []string
		for _, tl := range set.Tools {
			gk, err := oracle.Compile(tl)
			if err != nil {
				continue
			}
			gen, _, ok := targetGen(gk, sib, tripResult{validOK: true}, tripOne)
			if !ok {
				continue
			}
			for i := 1; i <= n; i++ {
				r := gen.Example(i)
				values++
				if !r.validOK {
					validWrong++
				}
				for _, k := range r.made {
					made[k]++
				}
				for _, k := range r.wrong {
					wrong[k]++
				}
				if len(samples) < 10 {
					samples = append(samples, r.samples...)
				}
			}
		}
		writeTrip(w, file, len(set.Tools), n, values, validWrong, made, wrong, samples, time.Since(start))
	}
	return nil
}

// tripOne classifies a valid value and each of its mutations.
func tripOne(t *rapid.T, ctx *mutators.Context, tg *mutators.Target) tripResult {
	want := mutators.Valid
	if tg.DoublesDiffer() {
		want = mutators.Either
	}
	got := ctx.Recognise(tg.Text)
	r := tripResult{validOK: got.Reading == want && len(got.Distortions) == 0}
	if !r.validOK {
		r.samples = append(r.samples,
			fmt.Sprintf("%s valid %s -> %s %v", ctx.Oracle().Tool().Name, truncate(string(tg.Text), 200),
				got.Reading, got.Distortions))
	}
	for _, m := range mutators.All() {
		mu, ok := m.Mutate(t, tg)
		if !ok {
			continue
		}
		key := string(mu.Class) + "/" + mu.Variant
		r.made = append(r.made, key)
		if got := ctx.Recognise(mu.Args); !got.Names(mu) {
			r.wrong = append(r.wrong, key)
			r.samples = append(r.samples,
				fmt.Sprintf("%s %s at %q: %s -> %s %v %v", ctx.Oracle().Tool().Name, key, mu.Path,
					truncate(string(mu.Args), 200), got.Reading, got.Distortions, got.Issues))
		}
	}
	return r
}

func writeTrip(w io.Writer, file string, tools, n, values, validWrong int, made, wrong map[string]int,
	samples []string, took time.Duration) {
	total, bad := 0, 0
	var keys []string
	for k, c := range made {
		keys = append(keys, k)
		total += c
		bad += wrong[k]
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "%s: %d tools, %d draws each: %d valid values, %d read back otherwise; %d mutations in %d classes "+
		"and variants, %d read back otherwise; %v\n",
		file, tools, n, values, validWrong, total, len(keys), bad, took.Round(time.Millisecond))
	classes := map[corpus.Class]bool{}
	for _, k := range keys {
		for _, c := range mutators.Classes() {
			if len(k) > len(c) && k[:len(c)] == string(c) && k[len(c)] == '/' {
				classes[c] = true
			}
		}
		if wrong[k] > 0 {
			fmt.Fprintf(w, "  %s: %d of %d read back otherwise\n", k, wrong[k], made[k])
		}
	}
	for _, c := range mutators.Classes() {
		if !classes[c] {
			fmt.Fprintf(w, "  %s: no case made\n", c)
		}
	}
	for _, s := range samples {
		fmt.Fprintf(w, "  e.g. %s\n", s)
	}
}
