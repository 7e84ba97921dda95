package harness_test

import (
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// FuzzReadProperty is the harness property for the corpus tool "read" against the reference
// gatekeeper as a fuzz target: plain go test runs the seeds, go test -fuzz=FuzzReadProperty
// lets the fuzzer drive rapid's choices.
func FuzzReadProperty(f *testing.F) {
	read, _ := sample.Tools().Lookup("read")
	target, err := harness.Fuzz(read, oracle.Reference{}, harness.Options{})
	if err != nil {
		f.Fatal(err)
	}
	// rapid reads the bytes as its bit stream: a draw needs a few kilobytes. All zeros is the
	// simplest value with each distortion; the others are varied.
	f.Add(make([]byte, 8192))
	for seed := uint64(1); seed <= 4; seed++ {
		f.Add(pseudoRandom(seed, 8192))
	}
	f.Fuzz(target)
}

// FuzzReadDifferential feeds arbitrary argument text to the gate and the oracle: here the gate
// is the reference itself, so they must always agree. Seeded from generated cases (and from
// testdata/fuzz/FuzzReadDifferential, which toolproof gen --format go-fuzz writes).
func FuzzReadDifferential(f *testing.F) {
	read, _ := sample.Tools().Lookup("read")
	target, err := harness.Differential(read, oracle.Reference{}, harness.Options{})
	if err != nil {
		f.Fatal(err)
	}
	seeds, err := harness.FuzzSeeds(read, 5, "", harness.Options{})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(target)
}

// pseudoRandom returns n deterministic bytes (an xorshift stream) for fuzz seeds.
func pseudoRandom(seed uint64, n int) []byte {
	b := make([]byte, n)
	x := seed*0x9E3779B97F4A7C15 + 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x)
	}
	return b
}

// The property's seeds are long enough for whole draws: none of them is skipped for running
// out of bytes, so plain go test really runs the property on them.
func TestFuzzSeedsAreNotSkipped(t *testing.T) {
	read, _ := sample.Tools().Lookup("read")
	target, err := harness.Fuzz(read, oracle.Reference{}, harness.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seeds := [][]byte{make([]byte, 8192)}
	for seed := uint64(1); seed <= 4; seed++ {
		seeds = append(seeds, pseudoRandom(seed, 8192))
	}
	for i, s := range seeds {
		var skipped bool
		t.Run("seed", func(t *testing.T) {
			defer func() { skipped = t.Skipped() }()
			target(t, s)
		})
		if skipped {
			t.Errorf("seed %d was skipped: too short for a draw", i)
		}
	}
}
