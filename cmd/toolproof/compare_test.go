package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestComparisonTable(t *testing.T) {
	base := []string{"run", "--tools", corpusTool("read"), "--checks", "10", "--seed", "2", "--validator", "reference",
		"--validator", execSpec(t)}
	text := must(t, 1, base...).stdout
	lines := strings.Split(text, "\n")
	if f := strings.Fields(lines[0]); len(f) != 4 || f[0] != "class" || f[1] != "reference" ||
		f[2] != "coerce" || f[3] != "0" {
		t.Errorf("header %q, want class, reference, coerce 0", lines[0])
	}
	if strings.Count(text, "class") != 1 {
		t.Errorf("want one table:\n%s", text)
	}
	row := regexp.MustCompile(`(?m)^stringified_type\s+(\d+)/(\d+)\s+(\d+)/(\d+)`).FindStringSubmatch(text)
	if row == nil {
		t.Fatalf("no stringified_type row:\n%s", text)
	}
	if row[1] != row[2] || row[3] == row[4] {
		t.Errorf("stringified_type: reference %s/%s, coerce %s/%s; want the reference to catch all, coerce to miss "+
			"some", row[1], row[2], row[3], row[4])
	}

	// The table lists every finding of the coercing validator, with its id.
	if !regexp.MustCompile(`(?m)^findings of coerce 0 \(\d+;`).MatchString(text) ||
		!regexp.MustCompile(`(?m)^  FAIL read: stringified_type missed`).MatchString(text) ||
		!regexp.MustCompile(`(?m)^       args .* id [0-9a-f]{20}$`).MatchString(text) {
		t.Errorf("the comparison does not list the findings:\n%s", text)
	}
	if !strings.Contains(text, "\nseed 2\n") {
		t.Errorf("the comparison does not give the seed:\n%s", text)
	}

	// The same JSON shape as one validator's: a document with a report each.
	var cmpJSON jsonDocument
	if err := json.Unmarshal([]byte(must(t, 1, append(base, "--format", "json")...).stdout), &cmpJSON); err != nil {
		t.Fatal(err)
	}
	if cmpJSON.Passed || cmpJSON.Seed != 2 || len(cmpJSON.Reports) != 2 ||
		cmpJSON.Reports[0].Validator != "reference" ||
		cmpJSON.Reports[1].Validator != "coerce 0" || len(cmpJSON.Reports[1].Findings) == 0 {
		t.Errorf("comparison JSON: passed %v, seed %d, %d reports", cmpJSON.Passed, cmpJSON.Seed, len(cmpJSON.Reports))
	}
	md := must(t, 1, append(base, "--format", "markdown")...).stdout
	if !strings.HasPrefix(md, "| class | reference | coerce 0 |") {
		t.Errorf("markdown comparison header: %q", strings.SplitN(md, "\n", 2)[0])
	}
	if !strings.Contains(md, "\nSeed 2.\n") || !strings.Contains(md, "\n**coerce 0**: ") ||
		!strings.Contains(md, "| read | stringified_type | missed | ") {
		t.Errorf("markdown comparison: no seed or no findings:\n%s", md)
	}
}

// Several validators with --format junit: one XML document (a JUnit consumer reads one).
func TestComparisonJUnitIsOneDocument(t *testing.T) {
	r := must(t, 1, "run", "--tools", corpusTool("read"), "--checks", "5", "--seed", "2", "--format", "junit",
		"--validator", "reference", "--validator", execSpec(t))
	checkWellFormedXML(t, r.stdout)
}

// Each report of a comparison keeps its own skipped tools: the tools skipped while loading are
// shared, the ones a validator refused are its own.
func TestComparisonKeepsEachValidatorsSkippedTools(t *testing.T) {
	dir := t.TempDir()
	var args []string
	// Three files with an entry that is no tool definition: three entries skipped while loading.
	for i := 1; i <= 3; i++ {
		f := writeFile(t, dir, fmt.Sprintf("junk%d.json", i), fmt.Sprintf(`[%d]`, i))
		args = append(args, "--tools", f)
	}
	ab := writeFile(t, dir, "ab.json",
		`[{"name":"ta","parameters":{"type":"object","properties":{"s":{"type":"string"}}}},
		{"name":"tb","parameters":{"type":"object","properties":{"s":{"type":"string"}}}}]`)
	args = append(args, "--tools", ab, "--checks", "3", "--seed", "1", "--format", "json",
		"--validator", execSpec(t, "-name", "v1", "-refuse", "ta"), "--validator", execSpec(t, "-name",
			"v2", "-refuse", "tb"))
	var out jsonDocument
	if err := json.Unmarshal([]byte(must(t, 0, append([]string{"run"}, args...)...).stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Reports) != 2 {
		t.Fatalf("%d reports", len(out.Reports))
	}
	for i, want := range []struct{ validator, refused string }{{"v1 0", "ta"}, {"v2 0", "tb"}} {
		r := out.Reports[i]
		var names []string
		for _, s := range r.Skipped {
			names = append(names, s.Tool)
		}
		sort.Strings(names)
		if d := cmp.Diff([]string{"", "", "", want.refused}, names); r.Validator != want.validator || d != "" {
			t.Errorf("report %d (%s): skipped tools (-want +got):\n%s", i, r.Validator, d)
			for _, s := range r.Skipped {
				t.Logf("  %s", s)
			}
		}
	}
}
