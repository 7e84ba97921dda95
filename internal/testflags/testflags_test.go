package testflags_test

import (
	"flag"
	"testing"

	"github.com/toolproof/toolproof/internal/testflags"
)

var (
	given = flag.Int("testflags.given", 1, "a flag set on the command line in the test")
	open  = flag.Int("testflags.open", 1, "a flag left to its default in the test")
)

func TestDefaultKeepsGivenFlags(t *testing.T) {
	// flag.Visit sees the flags set so far, as it does the ones the command line gave.
	if err := flag.Set("testflags.given", "2"); err != nil {
		t.Fatal(err)
	}
	testflags.Default(map[string]string{"testflags.given": "3", "testflags.open": "4"})
	if *given != 2 || *open != 4 {
		t.Fatalf("given %d, open %d; want 2 and 4", *given, *open)
	}
}
