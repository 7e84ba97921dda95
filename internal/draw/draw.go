package draw

import (
	"sync"

	"pgregory.net/rapid"
)

// Drawing through rapid.IntRange(lo, hi) builds a new generator each call; the small ranges
// the generator draws from all the time are built once and shared (rapid generators are
// immutable and safe for concurrent use).
const smallRange = 64

var (
	smallOnce sync.Once
	small     [smallRange][smallRange]*rapid.Generator[int]
	boolGen   = rapid.Bool()
	u32Gen    = rapid.Uint32()
)

// Uint32 draws a uint32.
func Uint32(t *rapid.T, label string) uint32 { return u32Gen.Draw(t, label) }

func buildSmall() {
	for lo := 0; lo < smallRange; lo++ {
		for hi := lo; hi < smallRange; hi++ {
			small[lo][hi] = rapid.IntRange(lo, hi)
		}
	}
}

// Int draws an int in [lo, hi].
func Int(t *rapid.T, lo, hi int, label string) int {
	if lo >= 0 && hi < smallRange && lo <= hi {
		smallOnce.Do(buildSmall)
		return small[lo][hi].Draw(t, label)
	}
	return rapid.IntRange(lo, hi).Draw(t, label)
}

// Bool draws a boolean.
func Bool(t *rapid.T, label string) bool { return boolGen.Draw(t, label) }

// A rapid.Bool draw reads one bit (about 14 ns); a small rapid.IntRange draws a biased bit
// length first (about 60 ns, most of it two math.Log1p calls). Where a draw only decides
// between a few outcomes, Chance and Bits decide from bits instead.

// Chance draws true with probability m/2^k (0 <= m <= 2^k, k <= 30): it reads the bits of a
// uniform u in [0, 2^k) most significant first, stopping as soon as u >= 2^k-m is decided (two
// bits on average), so all-zero bits, what rapid shrinks to, give false.
func Chance(t *rapid.T, m, k int, label string) bool {
	return chance(func() bool { return boolGen.Draw(t, label) }, m, k)
}

// chance is Chance reading its bits from bit.
func chance(bit func() bool, m, k int) bool {
	th := 1<<k - m
	if th <= 0 {
		return true
	}
	u := 0
	for i := k - 1; i >= 0; i-- {
		if bit() {
			u |= 1 << i
		}
		if u >= th {
			return true
		}
		if u|(1<<i-1) < th {
			return false
		}
	}
	return false
}

// Bits draws a uniform int in [0, 2^k) from k bits, most significant first.
func Bits(t *rapid.T, k int, label string) int {
	u := 0
	for i := 0; i < k; i++ {
		u <<= 1
		if boolGen.Draw(t, label) {
			u |= 1
		}
	}
	return u
}
