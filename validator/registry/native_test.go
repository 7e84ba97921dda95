package registry_test

// The native tool modules (node:PATH) and the seed gates (seed-typebox, seed-zod), run through
// the harness on the tools they serve. They need node and examples/node_modules (`npm ci` in
// examples): skipped without them, a failure under TOOLPROOF_REQUIRE_NODE=1.

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/needs"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

func requireExamples(t *testing.T) {
	t.Helper()
	needs.Met(t, "TOOLPROOF_REQUIRE_NODE", "the native modules",
		needs.Node(filepath.Join(root(t), "examples"), "examples"))
}

// served opens spec, which must serve its own tools, and returns it with them.
func served(t *testing.T, spec string) (validator.Validator, []tool.Tool) {
	t.Helper()
	v := open(t, newOpener(), spec)
	src, ok := v.(validator.ToolSource)
	if !ok {
		t.Fatalf("%s is a %T, not a validator.ToolSource", spec, v)
	}
	ts, err := src.Tools()
	if err != nil {
		t.Fatalf("%s: listing tools: %v", spec, err)
	}
	return v, ts
}

func module(t *testing.T, name string) string {
	return "node:" + filepath.Join(root(t), "examples", "native", name)
}

// has reports whether rep holds a blocking finding of kind on tool in class at path ("" any).
func has(rep *report.Report, toolName, class string, kind report.Kind, path string) bool {
	for _, f := range rep.Findings {
		if f.Tool == toolName && string(f.Class) == class && f.Kind == kind && f.Blocking &&
			(path == "" || f.Path == path) {
			return true
		}
	}
	return false
}

// hasNote reports whether rep holds a non-blocking finding of kind on tool in class.
func hasNote(rep *report.Report, toolName, class string, kind report.Kind) bool {
	for _, f := range rep.Findings {
		if f.Tool == toolName && string(f.Class) == class && f.Kind == kind && !f.Blocking {
			return true
		}
	}
	return false
}

func blocking(rep *report.Report) []report.Finding {
	var out []report.Finding
	for _, f := range rep.Findings {
		if f.Blocking {
			out = append(out, f)
		}
	}
	return out
}

// A zod module that bends (.coerce, .passthrough() behind a closed schema, .default) is caught
// with the right class and kind; the same tools gated strictly pass.
func TestNativeZodModule(t *testing.T) {
	requireExamples(t)
	v, ts := served(t, module(t, "loose.mjs"))
	if len(ts) != 3 {
		t.Fatalf("loose.mjs serves %d tools, want 3", len(ts))
	}
	rep := run(t, v, ts, harness.Options{})
	for _, w := range []struct {
		tool, class string
		kind        report.Kind
		path        string
	}{
		{"read_file", "stringified_type", report.Missed, ""},  // z.coerce: "20" -> 20, "false" -> true
		{"set_labels", "hallucinated_key", report.Missed, ""}, // .passthrough()
	} {
		if !has(rep, w.tool, w.class, w.kind, w.path) {
			t.Errorf("loose.mjs: no %s %s finding on %s at %q; findings: %v", w.class, w.kind,
				w.tool, w.path, rep.Findings)
		}
	}
	// .default(10) filled in: the schema shown to the model declares it, so it is reported apart
	// from silent changes and does not fail the run.
	if !hasNote(rep, "search", "valid", report.DeclaredDefault) ||
		has(rep, "search", "valid", report.SilentChange, "") {
		t.Errorf("loose.mjs: no non-blocking declared_default on search (.default(10)); findings: %v", rep.Findings)
	}
	if rep.Passed {
		t.Error("loose.mjs passed")
	}
	// The repairs coercion makes: "20" -> 20 is exact, "false" -> true is not.
	got := replayKinds(t, v, ts, harness.Repair,
		reject("read_file", "stringified_type", "/limit", `{"limit":"20","path":"a"}`, `{"limit":20,"path":"a"}`),
		reject("read_file", "wrong_type", "/recursive", `{"path":"a","recursive":"false"}`,
			`{"path":"a","recursive":false}`))
	if got["stringified_type"] != "" || got["wrong_type"] != report.WrongRepair {
		t.Errorf(`loose.mjs, repair: findings %v, want none for "20" -> 20 and wrong_repair for "false" -> true`, got)
	}

	v, ts = served(t, module(t, "strict.mjs"))
	rep = run(t, v, ts, harness.Options{})
	if fs := blocking(rep); len(fs) > 0 || !rep.Passed {
		t.Errorf("strict.mjs: %d blocking findings, want none; first: %v", len(fs), fs)
	}
	if rep.Classes["hallucinated_key"] == nil || rep.Classes["hallucinated_key"].Cases == 0 {
		t.Error("strict.mjs: no hallucinated_key case was sent: the passing run proves nothing")
	}
}

// An AI SDK tool set is gated as the SDK's parseToolCall does: z.object strips unknown keys the
// closed schema shown to the model forbids (missed in strict, an exact repair in repair).
func TestNativeAISDKModule(t *testing.T) {
	requireExamples(t)
	v, ts := served(t, module(t, "ai-sdk.mjs"))
	for _, tl := range ts {
		if !strings.Contains(string(tl.Parameters), `"additionalProperties":false`) {
			t.Errorf("%s: the SDK's schema for the model is closed, got %s", tl.Name, tl.Parameters)
		}
	}
	rep := run(t, v, ts, harness.Options{})
	if !has(rep, "get_weather", "hallucinated_key", report.Missed, "") {
		t.Errorf("get_weather (z.object, keys stripped): no hallucinated_key missed; findings: %v", rep.Findings)
	}
	if has(rep, "list_events", "hallucinated_key", report.Missed, "") {
		t.Errorf("list_events (.strict()): a hallucinated key got through")
	}
	// Stripping an invented key gives the original back; stripping a misspelt one loses its value.
	cs := []corpus.Case{
		reject("get_weather", "hallucinated_key", "/verbose", `{"city":"Oslo","verbose":true}`, `{"city":"Oslo"}`),
		reject("get_weather", "out_of_range_enum", "/Unit", `{"Unit":"celsius","city":"Oslo"}`,
			`{"city":"Oslo","unit":"celsius"}`),
	}
	if got := replayKinds(t, v, ts, harness.Repair, cs...); got["hallucinated_key"] != "" ||
		got["out_of_range_enum"] != report.WrongRepair {
		t.Errorf("ai-sdk.mjs, repair: findings %v, want none for an invented key and wrong_repair for a misspelt one",
			got)
	}
	if got := replayKinds(t, v, ts, harness.Strict, cs...); got["hallucinated_key"] != report.Missed {
		t.Errorf("ai-sdk.mjs, strict: findings %v, want the invented key missed", got)
	}
	// The error the SDK sends back to the model repeats the whole input.
	leak := reject("list_events", "wrong_type", "/max", `{"day":"2026-12-01","max":"tpc-00000077"}`,
		`{"day":"2026-12-01","max":7}`)
	leak.Canary = "tpc-00000077"
	if got := replayKinds(t, v, ts, harness.Strict, leak); got["wrong_type"] != report.Leak {
		t.Errorf("ai-sdk.mjs: findings %v, want a leak: InvalidToolInputError repeats the input", got)
	}
}

// reject is a must-reject case of class at path, distorted from original.
func reject(toolName, class, path, args, original string) corpus.Case {
	return corpus.Case{Tool: toolName, Expect: "reject", Class: corpus.Class(class), Path: path, Args: []byte(args),
		Original: []byte(original)}
}

// replayKinds replays cases (one per class) and returns the finding kind of each class.
func replayKinds(t *testing.T, v validator.Validator, ts []tool.Tool, profile harness.Profile,
	cs ...corpus.Case) map[string]report.Kind {
	t.Helper()
	rep, err := harness.Replay(cs, ts, v, harness.Options{Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != len(cs) {
		t.Fatalf("replayed %d cases of %d (stale: the oracle no longer rejects them?)", rep.Cases, len(cs))
	}
	out := map[string]report.Kind{}
	for _, f := range rep.Findings {
		out[string(f.Class)] = f.Kind
	}
	return out
}

// repair profile on the seed zod gate: "20" -> 20 is an exact repair, true -> 1 is not.
func TestSeedZodRepair(t *testing.T) {
	requireExamples(t)
	v, ts := served(t, "seed-zod")
	original := `{"code":"print(1)","language":"python","timeoutSeconds":20}`
	cs := []corpus.Case{
		reject("execute_code", "stringified_type", "/timeoutSeconds",
			`{"code":"print(1)","language":"python","timeoutSeconds":"20"}`, original),
		reject("execute_code", "wrong_type", "/timeoutSeconds",
			`{"code":"print(1)","language":"python","timeoutSeconds":true}`, original),
	}
	if got := replayKinds(t, v, ts, harness.Repair, cs...); got["stringified_type"] != "" ||
		got["wrong_type"] != report.WrongRepair {
		t.Errorf("repair: findings by class %v, want none for \"20\" -> 20 and wrong_repair for true -> 1", got)
	}
	if got := replayKinds(t, v, ts, harness.Strict, cs...); got["stringified_type"] != report.Missed ||
		got["wrong_type"] != report.Missed {
		t.Errorf("strict: findings by class %v, want missed for both", got)
	}
}

// The seed gates as the harness sees them: the zod gatekeeper fails (coerced values, a default
// filled in, values repeated in its correction prompt: each shown on a case of its own), the
// TypeBox gate holds (its objects are open, so hallucinated keys do not apply).
func TestSeedGates(t *testing.T) {
	requireExamples(t)
	v, ts := served(t, "seed-zod")
	if rep := run(t, v, ts, harness.Options{}); rep.Passed {
		t.Error("seed-zod passed")
	}
	leak := reject("execute_code", "wrong_type", "/environmentVariables",
		`{"code":"x","environmentVariables":"tpc-00000042","language":"shell"}`, `{"code":"x","language":"shell"}`)
	leak.Canary = "tpc-00000042"
	valid := corpus.Case{Tool: "execute_code", Expect: "accept", Class: "valid",
		Args: []byte(`{"code":"x","language":"shell"}`)}
	if got := replayKinds(t, v, ts, harness.Strict, leak, valid); got["wrong_type"] != report.Leak ||
		got["valid"] != report.DeclaredDefault {
		t.Errorf("seed-zod: findings %v, want a leak (the correction prompt repeats the value) and a "+
			"declared_default (timeoutSeconds: 10 filled in, as its schema declares)", got)
	}

	v, ts = served(t, "seed-typebox")
	if len(ts) != 1 || ts[0].Name != "read" {
		t.Fatalf("seed-typebox serves %v, want the read tool", ts)
	}
	rep := run(t, v, ts, harness.Options{})
	if fs := blocking(rep); len(fs) > 0 {
		t.Errorf("seed-typebox: %d blocking findings; first: %v", len(fs), fs)
	}
	if st := rep.Classes["stringified_type"]; st == nil || st.Cases == 0 {
		t.Error("seed-typebox: no stringified_type case was sent")
	}
	// The seed's own example: "20" for limit rejected at /limit, a missing path at /path.
	cs := []corpus.Case{
		reject("read", "stringified_type", "/limit", `{"limit":"20","options":{"labels":[]},"path":"README.md"}`,
			`{"limit":20,"options":{"labels":[]},"path":"README.md"}`),
		reject("read", "missing_required", "/path", `{"limit":20,"options":{"labels":[]}}`,
			`{"limit":20,"options":{"labels":[]},"path":"README.md"}`),
	}
	rep, err := harness.Replay(cs, ts, v, harness.Options{RequireLocation: true})
	if err != nil || len(rep.Findings) > 0 || rep.Cases != 2 {
		t.Errorf("seed-typebox on the seed's examples: %d cases, findings %v, %v", rep.Cases, rep.Findings, err)
	}
}
