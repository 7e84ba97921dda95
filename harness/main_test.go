package harness_test

import (
	"flag"
	"os"
	"testing"
)

// The harness's own tests shrink many deliberate failures; rapid's fail files for them would
// only litter testdata/ (toolproof keeps its own regression corpus, tested on its own).
func TestMain(m *testing.M) {
	flag.Parse()
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
