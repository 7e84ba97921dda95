package harness

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// observedWeights are proportions such as classify finds in a log: a few classes most of the
// time, most classes never.
var observedWeights = map[corpus.Class]float64{
	mutators.StringifiedType: 46, mutators.OutOfRangeEnum: 30, mutators.MissingRequired: 9,
	mutators.FlattenedArray: 14, mutators.WrappedScalar: 1,
}

func TestWeightedSharesKeepTheFloor(t *testing.T) {
	ms := mutators.All()
	w := newWeighted(ms, observedWeights, 0)
	floor := 1 / (4 * float64(len(ms)))
	sum := 0.0
	for i, m := range ms {
		sum += w.share[i]
		if w.share[i] < floor-1e-12 {
			t.Errorf("%s: share %.4f below the floor %.4f", m.Class(), w.share[i], floor)
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("shares sum to %v", sum)
	}
	// Above the floor, the shares keep the weights' proportions: 46 to 30.
	if r := w.share[0] / w.share[3]; math.Abs(r-46.0/30) > 1e-9 {
		t.Errorf("stringified_type / out_of_range_enum = %v, want 46/30", r)
	}
	if newWeighted(ms, nil, 0) != nil {
		t.Error("no weights: want every class once a draw (nil)")
	}
}

// TestWeightedDrawsInProportion draws 2,000 values' classes (26,000 picks) and checks that each
// class's frequency is within 1.5 percentage points of its share (about five standard deviations
// at the largest share), and that a seed gives the same classes.
func TestWeightedDrawsInProportion(t *testing.T) {
	ms := mutators.All()
	w := newWeighted(ms, observedWeights, 0)
	gen := rapid.Custom(func(t *rapid.T) []mutators.Mutator { return w.draw(t) })
	counts := map[corpus.Class]int{}
	total := 0
	for seed := 0; seed < 2000; seed++ {
		for _, m := range gen.Example(seed) {
			counts[m.Class()]++
			total++
		}
	}
	for i, m := range ms {
		got := float64(counts[m.Class()]) / float64(total)
		if math.Abs(got-w.share[i]) > 0.015 {
			t.Errorf("%s: drawn %.4f of the time, share %.4f (tolerance 0.015)", m.Class(), got, w.share[i])
		}
	}
	a, b := gen.Example(7), gen.Example(7)
	for i := range a {
		if a[i].Class() != b[i].Class() {
			t.Fatalf("seed 7 drew %v, then %v", a[i].Class(), b[i].Class())
		}
	}
}

// TestRunDrawsByWeights: a run with weights draws the heavy class most, says the weights in its
// report, and gives the same report for the same seed.
func TestRunDrawsByWeights(t *testing.T) {
	tools := sample.Tools().Tools[:8]
	run := func() (map[corpus.Class]int, []byte, []string) {
		counts := map[corpus.Class]int{}
		opts := Options{Checks: unshort(30), Seed: 5, Jobs: 1,
			Weights: map[corpus.Class]float64{mutators.StringifiedType: 1, mutators.NullValue: 9}}
		opts.observe = func(_ string, cs []corpus.Case) {
			for _, c := range cs {
				counts[c.Class]++
			}
		}
		rep, err := Run(tools, oracle.Reference{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := rep.Write(&b, "json"); err != nil {
			t.Fatal(err)
		}
		return counts, b.Bytes(), rep.Notes
	}
	counts, first, notes := run()
	_, second, _ := run()
	if !bytes.Equal(first, second) {
		t.Error("the same seed and weights gave two reports")
	}
	// null_value applies nearly everywhere: 9 in 10 weight, less the floor of each other class.
	nulls, all := counts[mutators.NullValue], 0
	for c, n := range counts {
		if c != corpus.Valid {
			all += n
		}
	}
	if float64(nulls) < 0.5*float64(all) || counts[mutators.MalformedJSON] == 0 {
		t.Errorf("cases by class %v: want null_value most, and every class drawn (the floor)", counts)
	}
	if len(notes) == 0 || !strings.Contains(notes[0], "classes drawn by the given weights") ||
		!strings.Contains(notes[0], "null_value 70.7%") {
		t.Errorf("notes %q: want the weights stated", notes)
	}
}
