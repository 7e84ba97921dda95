// Package mutators holds the distortions language models apply to tool arguments, one file per
// class (wrapping.go holds the two wrappings, raw.go the three classes of raw argument text). A
// mutator draws (through rapid, so failing cases shrink with their mutation) a change of a valid
// value and says what it did: the new argument text, the class, the JSON Pointer it touched, the
// schema keyword it breaks, a one-line reason and the verdict a gate owes it. A change is kept as
// must-reject only when the oracle rejects it for that keyword at that place; binary64.go,
// divisions.go and multiples.go hold the oracle's readings of numbers that decide it there.
package mutators
