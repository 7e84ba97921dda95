package registry_test

// The agent frameworks' own gates through node:PATH (examples/frameworks): for each framework, a
// module written as many teams write it is caught with the right class and kind, and the same
// tools written strictly get no finding but the framework's own (listed per framework, each one
// a defect no schema can avoid). They need examples/frameworks/node_modules (`npm ci` there),
// which brings Node.js 22 (the `node` package): skipped without it, a failure under
// TOOLPROOF_REQUIRE_NODE=1.

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/needs"
	"github.com/toolproof/toolproof/internal/syncbuf"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/tool"
)

// frameworksNode is the Node.js of examples/frameworks' lockfile (22, which ai@7 and
// @mastra/core need); the test skips without it, and fails under TOOLPROOF_REQUIRE_NODE=1.
func frameworksNode(t *testing.T) string {
	t.Helper()
	node := filepath.Join(root(t), "examples", "frameworks", "node_modules", ".bin", "node")
	why := ""
	if _, err := os.Stat(node); err != nil {
		why = "examples/frameworks/node_modules is missing (run `npm ci` in examples/frameworks)"
	} else if _, err := os.Stat(filepath.Join(root(t), "validator", "node", "node_modules")); err != nil {
		why = "validator/node/node_modules is missing (run `npm ci` in validator/node)"
	}
	needs.Met(t, "TOOLPROOF_REQUIRE_NODE", "the framework modules", why)
	return node
}

// frameworks opens examples/frameworks/NAME on the Node.js of that folder's lockfile.
func frameworks(t *testing.T, name string) (validator.Validator, []tool.Tool) {
	t.Helper()
	o := newOpener()
	o.Node = frameworksNode(t)
	spec := "node:" + filepath.Join(root(t), "examples", "frameworks", name)
	v := open(t, o, spec)
	src, ok := v.(validator.ToolSource)
	if !ok {
		t.Fatalf("%s is a %T, not a validator.ToolSource", spec, v)
	}
	ts, err := src.Tools()
	if err != nil || len(ts) == 0 {
		t.Fatalf("%s: listing tools: %v (%d tools)", spec, err, len(ts))
	}
	return v, ts
}

// want is one finding a lenient module must show: a blocking finding of kind in class on tool.
type want struct {
	tool, class string
	kind        report.Kind
}

// frameworkOwn is a finding a strict module may still show: the framework's own defect (of
// every class when class is "").
type frameworkOwn struct {
	class string
	kind  report.Kind
}

// checkFramework runs the lenient module (each of wants must be found) and the strict one (no
// blocking finding but those in own), and checks that the strict run sent the cases that matter.
// The frameworks run side by side: each is a Node.js process of its own, and the runs of one
// rapid setting (the lenient ones, the strict ones) share it.
func checkFramework(t *testing.T, loose, strict string, wants []want, own []frameworkOwn) {
	t.Parallel()
	v, ts := frameworks(t, loose)
	checks := 50 // a distortion of an optional field needs draws that have it
	if testing.Short() {
		checks *= 5 // -short runs a fifth of the checks, as rapid does: keep 50
	}
	rep := run(t, v, ts, harness.Options{Checks: checks})
	for _, w := range wants {
		if !has(rep, w.tool, w.class, w.kind, "") {
			t.Errorf("%s: no blocking %s %s on %s; findings: %v", loose, w.class, w.kind, w.tool, rep.Findings)
		}
	}
	v, ts = frameworks(t, strict)
	rep = run(t, v, ts, harness.Options{Mutators: withoutOwnErrors(own)})
	for _, f := range blocking(rep) {
		allowed := false
		for _, o := range own {
			allowed = allowed || ((o.class == "" || string(f.Class) == o.class) && f.Kind == o.kind)
		}
		if !allowed {
			t.Errorf("%s: blocking finding %s", strict, f.String())
		}
	}
	for _, c := range []string{"hallucinated_key", "missing_required", "wrong_type"} {
		if st := rep.Classes[c]; st == nil || st.Cases == 0 {
			t.Errorf("%s: no %s case was sent: the passing run proves nothing", strict, c)
		}
	}
}

// withoutOwnErrors is every mutator but those of the classes in which own allows the framework a
// gate_error (its own defect): the strict run cannot fail on their cases, which would only show
// that defect again (Genkit's RangeError on arrays nested thousands deep costs 10 s of CPU in a
// run of 100 checks).
func withoutOwnErrors(own []frameworkOwn) []mutators.Mutator {
	var out []mutators.Mutator
	for _, m := range mutators.All() {
		if !slices.ContainsFunc(own, func(o frameworkOwn) bool {
			return o.class == string(m.Class()) && o.kind == report.GateError
		}) {
			out = append(out, m)
		}
	}
	return out
}

// OpenAI Agents SDK: a JSON Schema `parameters` is checked by nothing but JSON.parse; a zod
// object strips invented keys.
func TestFrameworkOpenAIAgents(t *testing.T) {
	checkFramework(t, "agents-loose.mjs", "agents-strict.mjs", []want{
		{"get_weather", "missing_required", report.Missed},
		{"get_weather", "out_of_range_enum", report.Missed},
		{"get_weather", "root_not_object", report.Missed},
		{"set_labels", "hallucinated_key", report.Missed},
	}, nil)
}

// LangChain: invented keys stripped; z.coerce.number() turns true into 1; a .default() field
// shown to the model as required, and a call without it accepted. Its own defect: a
// rejected call nested thousands deep throws a RangeError out of JSON.stringify in
// StructuredTool.call (building the ToolInputParsingException).
func TestFrameworkLangChain(t *testing.T) {
	checkFramework(t, "langchain-loose.mjs", "langchain-strict.mjs", []want{
		{"search", "wrong_type", report.Missed},
		{"search", "missing_required", report.Missed},
		{"set_labels", "hallucinated_key", report.Missed},
	}, []frameworkOwn{{"implementation_defined", report.GateError}})
}

// Mastra: a JSON string parsed into an array field, a null dropped so the default fills it, the
// error message repeating the arguments. Its own defects: that message (a leak whatever the
// schema), and a RangeError out of convertUndefinedToNull on arrays nested thousands deep.
func TestFrameworkMastra(t *testing.T) {
	checkFramework(t, "mastra-loose.mjs", "mastra-strict.mjs", []want{
		{"search_issues", "json_in_string", report.Missed},
		{"search_issues", "null_value", report.Missed},
	}, []frameworkOwn{{"implementation_defined", report.GateError}, {"", report.Leak}})
}

// MCP TypeScript SDK, in process: z.coerce.number() lets true through. Its own defect: a
// "__proto__" key is dropped by the SDK's request parsing before the tool's .strict() object
// sees it (the same over stdio, with mcp:).
func TestFrameworkMCPServer(t *testing.T) {
	checkFramework(t, "mcp-loose.mjs", "mcp-strict.mjs", []want{
		{"read_file", "wrong_type", report.Missed},
	}, []frameworkOwn{{"hallucinated_key", report.Missed}})
	// The SDK lists z.object shapes open; read as closed (--close, as OpenAI's strict mode
	// sends them), an invented key is stripped and the handler runs.
	v, ts := frameworks(t, "mcp-loose.mjs")
	if rep := run(t, v, ts, harness.Options{Close: true}); !has(rep, "read_file",
		"hallucinated_key", report.Missed, "") {
		t.Errorf("mcp-loose.mjs, --close: no hallucinated_key missed; findings: %v", rep.Findings)
	}
}

// An in-process McpServer whose tool answers a valid call with an error is caught as mcp: would
// catch it: an exception's wording is a gate_error, the tool's own words a false_reject.
func TestFrameworkMCPServerErrorAnswers(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root(t), "examples", "frameworks", "node_modules"),
		filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	src := `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
export const server = new McpServer({ name: "errs", version: "1.0.0" });
const answer = (text) => async () => ({ isError: true, content: [{ type: "text", text }] });
server.registerTool("throws", { inputSchema: z.object({ n: z.number() }).strict() },
  answer("TypeError: Cannot read properties of undefined (reading 'rows')"));
server.registerTool("refuses", { inputSchema: z.object({ n: z.number() }).strict() }, answer("no record numbered so"));
`
	if err := os.WriteFile(filepath.Join(dir, "errs.mjs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	o := newOpener()
	o.Node = frameworksNode(t)
	v := open(t, o, "node:"+filepath.Join(dir, "errs.mjs"))
	ts, err := v.(validator.ToolSource).Tools()
	if err != nil {
		t.Fatal(err)
	}
	rep := run(t, v, ts, harness.Options{Checks: 5, Seed: 1})
	if !has(rep, "throws", "valid", report.GateError, "") || !has(rep, "refuses", "valid", report.FalseReject, "") {
		t.Errorf("want a gate_error on throws and a false_reject on refuses; findings: %v", rep.Findings)
	}
	// --ran-pattern reads the server's wording here as over mcp:: both tools ran, then failed, so
	// no valid call is a finding. What is left is the SDK's own defect (docs/frameworks.md): an
	// invented __proto__ key dropped before the .strict() schema sees it, and the handler run.
	o.Options.Wording.Ran = regexp.MustCompile(`no record numbered|Cannot read properties`)
	v = open(t, o, "node:"+filepath.Join(dir, "errs.mjs"))
	rep = run(t, v, ts, harness.Options{Checks: 5, Seed: 1})
	for _, f := range rep.Findings {
		if f.Kind != report.Missed || !strings.Contains(string(f.Args), `"__proto__"`) {
			t.Errorf("with --ran-pattern: %s %s %s on %s, want only the __proto__ key missed",
				f.Tool, f.Class, f.Kind, f.Args)
		}
	}
	if len(rep.Findings) == 0 {
		t.Errorf("with --ran-pattern: no finding, want the __proto__ key missed (the handler ran on it)")
	}
}

// AI SDK: jsonSchema() without validate checks nothing; a zod object strips invented keys. Its
// own defect: InvalidToolInputError's message repeats the whole input to the model.
func TestFrameworkAISDK(t *testing.T) {
	checkFramework(t, "ai-loose.mjs", "ai-strict.mjs", []want{
		{"get_weather", "missing_required", report.Missed},
		{"get_weather", "out_of_range_enum", report.Missed},
		{"set_labels", "hallucinated_key", report.Missed},
	}, []frameworkOwn{{"", report.Leak}})
}

// A tool object node: does not understand is refused with its reason, never checked by a guess.
func TestFrameworkUnknownToolRefused(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "odd.mjs")
	src := `export const tools = [{ name: "odd", description: "x", execute: async () => 1, args: {} }, { name: "ok", ` +
		`schema: { type: "object" } }];`
	if err := os.WriteFile(mod, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr safeBuffer
	o := newOpener()
	o.Node = frameworksNode(t)
	o.Options.Stderr = &stderr
	v := open(t, o, "node:"+mod)
	ts, err := v.(validator.ToolSource).Tools()
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Name != "ok" {
		t.Errorf("served %v, want only the tool it understands", ts)
	}
	_ = registry.Close(v)
	if got := stderr.String(); !strings.Contains(got, `("odd") left out: a tool object node: does not understand`) {
		t.Errorf("stderr does not say why odd was left out: %q", got)
	}
}

// safeBuffer is a bytes.Buffer for a child's stderr, written from the client's goroutines.
type safeBuffer = syncbuf.Buffer
