package harness

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/generate"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
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
// output is deterministic.
func Generate(tools []tool.Tool, opts GenOptions) ([]corpus.Case, []tool.Skipped) {
	var skipped []tool.Skipped
	type entry struct {
		t  tool.Tool
		gk *validator.Gatekeeper
		g  *generate.Generator
	}
	var es []entry
	var gks []*validator.Gatekeeper
	for _, t := range tools {
		if opts.Close {
			t = tool.Close(t)
		}
		gk, err := validator.Compile(t)
		if err != nil {
			skipped = append(skipped, tool.Skipped{Tool: t.Name, Source: t.Source, Reason: unwrapConfig(err)})
			continue
		}
		gks = append(gks, gk)
		g, err := generate.New(gk)
		if err != nil {
			skipped = append(skipped, tool.Skipped{Tool: t.Name, Source: t.Source, Reason: err.Error()})
			continue
		}
		es = append(es, entry{t, gk, g})
	}
	ms := opts.Mutators
	if ms == nil {
		ms = mutators.All()
	}
	if !opts.Mutated {
		ms = []mutators.Mutator{}
	}
	sib := mutators.SiblingsOf(tools)
	var out []corpus.Case
	for _, e := range es {
		p := &prepared{tool: e.t, hash: e.t.SchemaHash(), oracle: e.gk, gen: e.g, mctx: mutators.NewContext(e.gk, sib)}
		bundle := rapid.Custom(func(t *rapid.T) []corpus.Case {
			cases, _, _, ok := draw(t, p, ms)
			if !ok {
				return nil
			}
			return cases
		})
		for i := 0; i < opts.N; i++ {
			cases := bundle.Example(opts.Seed*opts.N + i)
			for _, c := range cases {
				if c.Class == "valid" && !opts.Valid {
					continue
				}
				c.Provenance = ""
				out = append(out, c.Seal())
			}
		}
	}
	return out, skipped
}
