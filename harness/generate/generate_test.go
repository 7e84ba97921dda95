package generate_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

func TestCorpusToolsGenerateValidValues(t *testing.T) {
	set := sample.Tools()
	if len(set.Skipped) > 0 {
		t.Fatalf("skipped: %v", set.Skipped)
	}
	for _, tl := range set.Tools {
		t.Run(tl.Name, func(t *testing.T) {
			gk, g := gentest.New(t, tl)
			rapid.Check(t, func(rt *rapid.T) {
				v := g.Valid().Draw(rt, "args")
				if !gk.Valid(v) {
					rt.Fatalf("invalid value %v", v)
				}
			})
			st := g.Stats()
			if st.Bugs > 0 {
				t.Errorf("%d values rejected by the oracle; last: %s", st.Bugs, st.LastBug)
			}
			if st.Unreachable > st.Values/10 {
				t.Errorf("too many unreachable draws: %+v", st)
			}
			t.Logf("%+v", st)
		})
	}
}
