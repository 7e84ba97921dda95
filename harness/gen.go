package harness

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/tool"
)

// GenOptions say which cases Generate makes.
type GenOptions struct {
	N        int                // valid values per tool
	Seed     int                // the same seed gives the same cases
	Valid    bool               // emit the valid values
	Mutated  bool               // emit one distortion per class and value
	Mutators []mutators.Mutator // nil: every mutator
	Close    bool
}

// Generate makes cases for every tool without a validator under test: valid values and their
// distortions, each confirmed by the oracle. Value i of a tool is drawn from seed Seed*N+i, so
// output is deterministic. It holds every case; GenerateEach streams them.
func Generate(tools []tool.Tool, opts GenOptions) ([]corpus.Case, []tool.Skipped) {
	var out []corpus.Case
	skipped, _ := GenerateEach(tools, opts, func(c corpus.Case) error {
		out = append(out, c)
		return nil
	})
	return out, skipped
}

// GenerateEach is Generate that hands each case to emit as it is made, one tool at a time, so
// memory does not grow with the number of tools; an error from emit stops it.
func GenerateEach(tools []tool.Tool, opts GenOptions, emit func(corpus.Case) error) ([]tool.Skipped, error) {
	var skipped []tool.Skipped
	ms := opts.Mutators
	if ms == nil {
		ms = mutators.All()
	}
	if !opts.Mutated {
		ms = []mutators.Mutator{}
	}
	sib := mutators.SiblingsOf(tools)
	for _, t := range tools {
		p, skip := prepareOracle(t, opts.Close, sib)
		if skip != nil {
			skipped = append(skipped, *skip)
			continue
		}
		bundle := rapid.Custom(func(t *rapid.T) []corpus.Case {
			cs, _, _, ok := draw(t, p, ms)
			if !ok {
				return nil
			}
			return cs
		})
		reached := 0
		for i := 0; i < opts.N; i++ {
			cs := bundle.Example(opts.Seed*opts.N + i)
			if len(cs) > 0 {
				reached++
			}
			for _, c := range cs {
				if c.Class == corpus.Valid && !opts.Valid {
					continue
				}
				c.Provenance = ""
				if err := emit(c.Seal()); err != nil {
					return skipped, err
				}
			}
		}
		if reached == 0 && opts.N > 0 {
			why := fmt.Sprintf("the generator reached no valid value in %d draws: nothing was written for it", opts.N)
			if un := p.gen.Stats().Unbuilt; len(un) > 0 {
				why = fmt.Sprintf("the generator could not construct a string for %s in %d draws: nothing was "+
					"written for it "+
					"(a string the pattern matches in the property's \"examples\" or \"default\" is drawn instead)",
					strings.Join(un, ", "), opts.N)
			}
			skipped = append(skipped, tool.Skipped{Tool: p.tool.Name, Source: p.tool.Source, Reason: why})
		}
	}
	return skipped, nil
}
