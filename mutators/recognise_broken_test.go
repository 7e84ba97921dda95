package mutators

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// misnaming wraps a recogniser's findings of class c with a wrong variant: a recogniser broken
// on purpose.
func misnamed(ds []Distortion, c corpus.Class) []Distortion {
	out := make([]Distortion, len(ds))
	for i, d := range ds {
		if d.Class == c {
			d.Variant, d.Alike = "broken-"+d.Variant, nil
		}
		out[i] = d
	}
	return out
}

type brokenUndoer struct {
	undoer
	class corpus.Class
}

func (b brokenUndoer) undo(r *undoing, s *site) []undo {
	us := b.undoer.undo(r, s)
	for i := range us {
		us[i].variant, us[i].alike = "broken-"+us[i].variant, nil
	}
	return us
}

type brokenExplainer struct {
	explainer
	class corpus.Class
}

func (b brokenExplainer) explain(r *undoing, is validator.Issue, s *site) ([]Distortion, bool) {
	ds, ok := b.explainer.explain(r, is, s)
	return misnamed(ds, b.class), ok
}

// broken is the default recognisers with class c's misnaming every variant.
func broken(c corpus.Class) recognisers {
	rs := defaultRecognisers()
	text, root := rs.text, rs.root
	rs.text = func(b []byte) (any, bool, []Distortion, string) {
		v, parsed, ds, either := text(b)
		return v, parsed, misnamed(ds, c), either
	}
	rs.root = func(v any) (any, []Distortion, bool) {
		obj, ds, ok := root(v)
		return obj, misnamed(ds, c), ok
	}
	for i, u := range rs.undoers {
		if u.(Mutator).Class() == c {
			rs.undoers[i] = brokenUndoer{u, c}
		}
	}
	for i, e := range rs.explainers {
		if e.(Mutator).Class() == c {
			rs.explainers[i] = brokenExplainer{e, c}
		}
	}
	return rs
}

// TestTheRoundTripCatchesABrokenRecogniser breaks each class's recogniser in turn and checks
// that the property of TestEveryMutationClassifiesBack then fails for that class: cases of it
// no longer classify back (those another class also reads aside), while the intact recognisers
// read the same cases back.
func TestTheRoundTripCatchesABrokenRecogniser(t *testing.T) {
	set, err := tool.Load("../validator/tool/sample/tools")
	if err != nil {
		t.Fatal(err)
	}
	sib := SiblingsOf(set.Tools)
	type fixture struct {
		ctx *Context
		gen *generate.Generator
	}
	var fs []fixture
	for _, tl := range set.Tools {
		gk, g := gentest.New(t, tl)
		fs = append(fs, fixture{NewContext(gk, sib), g})
	}
	for _, m := range All() {
		c := m.Class()
		rs := broken(c)
		caught, made := 0, 0
		for _, f := range fs {
			draw := rapid.Custom(func(rt *rapid.T) int {
				v, ok := f.gen.Draw(rt)
				if !ok {
					return 0
				}
				mu, ok := m.Mutate(rt, f.ctx.Target(v))
				if !ok {
					return 0
				}
				made++
				if !f.ctx.Recognise(mu.Args).Names(mu) {
					t.Errorf("%s: the intact recognisers misread %q", c, mu.Args)
				}
				if !f.ctx.recognise(mu.Args, rs).Names(mu) {
					caught++
				}
				return 0
			})
			for i := 0; i < 3; i++ {
				draw.Example(i)
			}
		}
		// A few cases of a class are also read as another class that writes the same text (an
		// Alike), which the broken recogniser does not touch.
		if made == 0 || caught*10 < made*9 {
			t.Errorf("%s broken on purpose: %d of its %d cases no longer classify back, want nine in ten at least",
				c, caught, made)
		}
	}
}
