// Package draw draws small integers and booleans through rapid without building a new rapid
// generator for every draw (rapid.IntRange(lo, hi) allocates one each call).
package draw
