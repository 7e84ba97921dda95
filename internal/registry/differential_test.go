package registry_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/tool"
)

// The standing differential, small: correct validators get no blocking finding on the
// embedded corpus and on testdata/interop.json (integers without bounds, bounds past 2^53,
// decimal multipleOf, exclusive bounds, patterns whose shorthands the regex dialects read
// differently, enums of mixed types). A blocking finding here is a false alarm of toolproof
// (or a library bug, to be documented and the case left out). `go run ./cmd/measure
// differential` runs the large version over BFCL.
func TestDifferentialNoFalseAlarm(t *testing.T) {
	interop, err := tool.Load("testdata/interop.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(interop.Skipped) > 0 {
		t.Fatalf("testdata/interop.json: skipped %v", interop.Skipped)
	}
	var all tool.Set
	all.Merge(corpus.Tools())
	all.Merge(interop)
	for _, name := range []string{"ajv", "jsonschema-go"} {
		t.Run(name, func(t *testing.T) {
			o := zoo
			if name == "ajv" {
				requireNode(t)
				o = newOpener()
			}
			rep := run(t, open(t, o, name), all.Tools, harness.Options{})
			for _, s := range rep.Skipped {
				if strings.HasPrefix(s.Source, "testdata/") {
					t.Errorf("%s skipped a tool of testdata/interop.json: %s", name, s)
				}
			}
			groups := map[string][]harness.Finding{}
			for _, f := range rep.Findings {
				if f.Blocking {
					k := fmt.Sprintf("%s %s %s", f.Class, f.Kind, f.Variant)
					groups[k] = append(groups[k], f)
				}
			}
			var keys []string
			for k := range groups {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fs := groups[k]
				f := fs[0]
				t.Errorf("%s: %d blocking %s findings, e.g. %s at %s: %s\n  args %s", name, len(fs), k, f.Tool, f.Path, f.Reason, f.Args)
			}
		})
	}
}
