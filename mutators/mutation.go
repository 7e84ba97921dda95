package mutators

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
)

// A Mutator draws one distortion of a target.
type Mutator interface {
	Class() corpus.Class
	// Mutate draws a distortion of tg: a case with the argument text, class, variant, place,
	// scope, keyword, reason, canary and the verdict owed (the caller names the tool). ok is
	// false when the class applies nowhere in this value (no place to distort, or the oracle
	// accepts every candidate: the schema lets it through).
	Mutate(t *rapid.T, tg *Target) (m corpus.Case, ok bool)
}

// All returns every class's mutator, classic classes first (Default's order).
func All() []Mutator { return Default().Mutators() }

// Classes lists the class names of All, in order.
func Classes() []corpus.Class { return Default().Classes() }

// Select returns the mutators named in a comma-separated list ("" or "all": every one).
func Select(list string) ([]Mutator, error) { return Default().Select(list) }
