package harness_test

import (
	"flag"
	"os"
	"testing"
)

// The harness's own tests shrink many deliberate failures; rapid's fail files for them would
// only litter testdata/ (toolproof keeps its own regression corpus, tested on its own).
//
// Shrinking a deliberate failure is given 5 seconds (2 with -short) unless -rapid.shrinktime says otherwise
// (rapid's default, 30 s, goes on a big tool's failure, and the tests here find, they do not
// grade, the minimal case; the one test that checks minimality uses a tiny schema).
func TestMain(m *testing.M) {
	flag.Parse()
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.shrinktime" })
	if !given && os.Getenv("RAPID_SHRINKTIME") == "" {
		limit := "5s"
		if testing.Short() {
			limit = "2s"
		}
		if err := flag.Set("rapid.shrinktime", limit); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
