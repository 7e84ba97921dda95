package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/toolproof/toolproof/internal/needs"
)

// requireExamples skips the test (fails it under TOOLPROOF_REQUIRE_NODE=1) when node or the
// examples' packages (`npm ci` in examples) are missing.
func requireExamples(t *testing.T) {
	t.Helper()
	needs.Met(t, "TOOLPROOF_REQUIRE_NODE", "the native modules",
		needs.Node(filepath.Join("..", "..", "examples"), "examples"))
}

// run with no --tools takes the tools a node: module or a seed gate serves.
func TestRunServedTools(t *testing.T) {
	requireExamples(t)
	type report struct {
		Passed    bool   `json:"passed"`
		Validator string `json:"validator"`
		Findings  []struct {
			Tool, Class, Kind string
		} `json:"findings"`
		Classes map[string]struct {
			Cases int `json:"cases"`
		} `json:"classes"`
	}
	parse := func(out string) report {
		var doc struct{ Reports []report }
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Reports) != 1 {
			t.Fatalf("report is not a JSON document of one report: %v\n%s", err, clip(out))
		}
		return doc.Reports[0]
	}
	module := filepath.Join("..", "..", "examples", "native")
	common := []string{"--checks", "5", "--seed", "1", "--format", "json"}

	args := append([]string{"run", "--validator", "node:" + filepath.Join(module, "strict.mjs")}, common...)
	r := parse(must(t, 0, args...).stdout)
	if !r.Passed || r.Classes["valid"].Cases != 3*5 {
		t.Errorf("strict.mjs: passed %v, %d valid cases (want 3 tools × 5)", r.Passed, r.Classes["valid"].Cases)
	}

	args = append([]string{"run", "--validator", "node:" + filepath.Join(module, "loose.mjs")}, common...)
	r = parse(must(t, 1, args...).stdout)
	found := false
	for _, f := range r.Findings {
		found = found || f.Tool == "read_file" && f.Class == "stringified_type" && f.Kind == "missed"
	}
	if !found {
		t.Errorf("loose.mjs: no stringified_type missed on read_file: %+v", r.Findings)
	}

	for _, seed := range []struct {
		name string
		code int
	}{{"seed-zod", 1}, {"seed-typebox", 0}} {
		args = append([]string{"run", "--validator", seed.name}, common...)
		if r := parse(must(t, seed.code, args...).stdout); r.Validator == "" || r.Classes["valid"].Cases == 0 {
			t.Errorf("%s: report %+v", seed.name, r)
		}
	}
}

func TestRunNodeModuleErrors(t *testing.T) {
	for _, spec := range []string{"node:", "node:" + filepath.Join(t.TempDir(), "missing.mjs")} {
		if r := cli(t, "run", "--validator", spec); r.code != 2 {
			t.Errorf("--validator %s: exit %d, want 2 (bad usage)\n%s", spec, r.code, r.stderr)
		}
	}
}
