package registry_test

// The tool layers beside the agent frameworks, through node:PATH (examples/frameworks): the
// Anthropic and OpenAI SDKs' runnable tools, Standard Schema libraries whose schemas are not
// plain objects, LangGraph's ToolNode and Genkit's tools, each through its own code path, as
// checkFramework runs the frameworks.

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/registry"
)

// Anthropic SDK: betaTool's parse hands the input on unchecked; a betaZodTool's zod object strips
// invented keys. Written with betaZodTool and .strict() objects, nothing gets through.
func TestFrameworkAnthropicSDK(t *testing.T) {
	checkFramework(t, "anthropic-loose.mjs", "anthropic-strict.mjs", []want{
		{"get_weather", "missing_required", report.Missed},
		{"get_weather", "root_not_object", report.Missed},
		{"set_labels", "hallucinated_key", report.Missed},
	}, nil)
}

// OpenAI SDK runTools: a runnable function with parse: JSON.parse checks only the JSON; a
// zodFunction's zod object strips invented keys. Written with zodFunction and .strict()
// objects, nothing gets through.
func TestFrameworkOpenAIRunTools(t *testing.T) {
	checkFramework(t, "openai-loose.mjs", "openai-strict.mjs", []want{
		{"get_weather", "missing_required", report.Missed},
		{"get_weather", "out_of_range_enum", report.Missed},
		{"set_labels", "hallucinated_key", report.Missed},
	}, nil)
}

// arktype: its types are functions with a `~standard` property. An open type behind a closed
// `parameters` passes an invented key on; a string.integer.parse branch changes a valid call.
// Its own defect: its messages repeat the value they reject ("(was \"CELSIUS\")"), a leak.
func TestFrameworkArkType(t *testing.T) {
	checkFramework(t, "arktype-loose.mjs", "arktype-strict.mjs", []want{
		{"get_weather", "hallucinated_key", report.Missed},
		{"read_file", "valid", report.SilentChange},
	}, []frameworkOwn{{"", report.Leak}})
}

// effect Schema, the Schema itself as `schema`: node: joins its two Standard Schema converters.
// The Standard JSON Schema shows every Struct open and the decoder strips undeclared keys; with
// onExcessProperty "error" on both sides, nothing gets through.
func TestFrameworkEffectSchema(t *testing.T) {
	checkFramework(t, "effect-loose.mjs", "effect-strict.mjs", []want{
		{"get_weather", "valid", report.SilentChange},
	}, nil)
}

// LangGraph ToolNode: each call through a ToolNode of the module's class, whose tools are
// LangChain's: invented keys stripped, z.coerce.number() takes true, a .default() field shown
// as required left out. Its own defect is LangChain's: a RangeError out of JSON.stringify in
// StructuredTool.call on arrays nested thousands deep.
func TestFrameworkLangGraphToolNode(t *testing.T) {
	checkFramework(t, "langgraph-loose.mjs", "langgraph-strict.mjs", []want{
		{"search", "wrong_type", report.Missed},
		{"search", "missing_required", report.Missed},
		{"set_labels", "hallucinated_key", report.Missed},
	}, []frameworkOwn{{"implementation_defined", report.GateError}})
}

// Genkit: ai.defineTool checks a call against the JSON Schema of its zod 3 `z` with ajv. A zod 4
// schema becomes an empty one (node: says so on stderr): the model is shown nothing, and even an
// array for the whole call reaches the function. Its own defect: a RangeError out of
// ValidationError's JSON.stringify on arrays nested thousands deep.
func TestFrameworkGenkit(t *testing.T) {
	checkFramework(t, "genkit-loose.mjs", "genkit-strict.mjs", []want{
		{"get_weather", "root_not_object", report.Missed},
		{"set_labels", "root_not_object", report.Missed},
	}, []frameworkOwn{{"implementation_defined", report.GateError}})
	var stderr safeBuffer
	o := newOpener()
	o.Node = frameworksNode(t)
	o.Options.Stderr = &stderr
	v := open(t, o, "node:"+filepath.Join(root(t), "examples", "frameworks", "genkit-loose.mjs"))
	if _, err := v.(validator.ToolSource).Tools(); err != nil {
		t.Fatal(err)
	}
	_ = registry.Close(v)
	if got := stderr.String(); !strings.Contains(got,
		`the Genkit tool "get_weather": its inputSchema is a zod 4 schema`) {
		t.Errorf("stderr does not say that get_weather is shown no schema: %q", got)
	}
}

// A .ts module runs with Node's type stripping (the frameworks' Node.js is 22, where it is behind
// --experimental-strip-types): its tools are served.
func TestFrameworkTypeScriptModule(t *testing.T) {
	o := newOpener()
	o.Node = frameworksNode(t)
	v := open(t, o, "node:"+filepath.Join(root(t), "validator", "node", "test", "fixtures", "typed.ts"))
	defer registry.Close(v)
	ts, err := v.(validator.ToolSource).Tools()
	if err != nil || len(ts) != 1 || ts[0].Name != "read" {
		t.Fatalf("typed.ts served %v (%v), want its tool read", ts, err)
	}
}
