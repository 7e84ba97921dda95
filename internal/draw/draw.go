// Package draw draws small integers and booleans through rapid without building a new rapid
// generator for every draw (rapid.IntRange(lo, hi) allocates one each call).
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
