package draw

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

type quietT struct{ *testing.T }

func (quietT) Logf(string, ...any) {}
func (quietT) Log(...any)          {}

// sample runs f n times inside rapid test cases.
func sample(t *testing.T, n int, f func(rt *rapid.T)) {
	t.Helper()
	for n > 0 && !t.Failed() {
		rapid.Check(quietT{t}, func(rt *rapid.T) {
			for i := 0; i < 100 && n > 0; i++ {
				f(rt)
				n--
			}
		})
	}
}

func TestChanceOdds(t *testing.T) {
	const n = 40000
	for _, c := range []struct{ m, k int }{{0, 3}, {1, 1}, {5, 5}, {9, 5}, {21, 5}, {11, 6}, {13, 6}, {1, 10}, {8, 3}} {
		hits := 0
		sample(t, n, func(rt *rapid.T) {
			if Chance(rt, c.m, c.k, "c") {
				hits++
			}
		})
		want := float64(c.m) / float64(int(1)<<c.k)
		got := float64(hits) / n
		// six standard deviations, and exact at the ends
		if tol := 6 * math.Sqrt(want*(1-want)/n); math.Abs(got-want) > tol || (want == 0 && hits != 0) ||
			(want == 1 && hits != n) {
			t.Errorf("Chance(%d, %d): true %.4f of the time, want %.4f", c.m, c.k, got, want)
		}
	}
}

func TestBitsUniform(t *testing.T) {
	const n = 40000
	var counts [8]int
	sample(t, n, func(rt *rapid.T) {
		v := Bits(rt, 3, "b")
		if v < 0 || v > 7 {
			t.Fatalf("Bits(3) = %d, outside [0, 8)", v)
		}
		counts[v]++
	})
	tol := 6 * math.Sqrt(1.0/8*7/8/n)
	for v, c := range counts {
		if got := float64(c) / n; math.Abs(got-1.0/8) > tol {
			t.Errorf("Bits(3) = %d %.4f of the time, want 0.125", v, got)
		}
	}
}

// TestChanceReadsU: for every u in [0, 2^k), read as k bits most significant first, chance is
// true exactly when u >= 2^k-m (so m of the 2^k readings are true and all-zero bits, what rapid
// shrinks to, are false), and it stops reading once the answer is decided.
func TestChanceReadsU(t *testing.T) {
	for k := 1; k <= 6; k++ {
		for m := 0; m <= 1<<k; m++ {
			trues := 0
			for u := 0; u < 1<<k; u++ {
				read := 0
				bit := func() bool {
					if read >= k {
						t.Fatalf("chance(m=%d, k=%d) read more than %d bits", m, k, k)
					}
					read++
					return u>>(k-read)&1 == 1
				}
				got := chance(bit, m, k)
				if want := u >= 1<<k-m; got != want {
					t.Fatalf("chance(m=%d, k=%d) on u=%d = %v, want %v", m, k, u, got, want)
				}
				if got {
					trues++
				}
				// decided after the bits that tell u's prefix apart from the threshold: the
				// answer is the same for every u sharing the first read bits.
				for v := u &^ (1<<(k-read) - 1); v < (u|(1<<(k-read)-1))+1; v++ {
					if (v >= 1<<k-m) != got {
						t.Fatalf("chance(m=%d, k=%d) on u=%d stopped after %d bits, but u=%d would differ",
							m, k, u, read, v)
					}
				}
			}
			if trues != m {
				t.Fatalf("chance(m=%d, k=%d) true for %d readings of %d", m, k, trues, 1<<k)
			}
		}
	}
}
