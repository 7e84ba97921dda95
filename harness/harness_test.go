package harness_test

import (
	"os"
	"testing"
	"time"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator"
)

func TestReferencePassesOnTheCorpus(t *testing.T) {
	start := time.Now()
	rep, err := harness.Run(corpus.Tools().Tools, validator.Reference{}, harness.Options{RequireLocation: true})
	if err != nil {
		t.Fatal(err)
	}
	for c, st := range rep.Classes {
		if st.Located != st.Rejected {
			t.Errorf("%s: the reference located %d of the %d cases it rejected; it reports every issue where it is", c, st.Located, st.Rejected)
		}
	}
	if !rep.Passed || len(rep.Findings) > 0 {
		rep.WriteText(os.Stderr)
		t.Fatalf("the reference validator has findings")
	}
	if len(rep.Skipped) > 0 {
		t.Fatalf("skipped: %v", rep.Skipped)
	}
	t.Logf("%d tools, %d cases in %v", rep.Tools, rep.Cases, time.Since(start))
}

func TestBrokenValidatorsAreCaught(t *testing.T) {
	tools := corpus.Tools().Tools
	for _, b := range brokenValidators() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			opts := b.opts
			opts.Timeout, opts.Jobs = 200*time.Millisecond, 1
			rep, err := harness.Run(tools, b.v, opts)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			var got []string
			for _, f := range rep.Findings {
				got = append(got, string(f.Kind)+"/"+f.Class)
				if string(f.Kind) == b.want || string(f.Kind)+"/"+f.Class == b.want {
					found = true
				}
			}
			if !found || rep.Passed {
				t.Errorf("%s: want a %s finding; got %v", b.v.Name(), b.want, got)
			}
			t.Logf("%d findings in %v", len(rep.Findings), time.Since(start))
		})
	}
}
