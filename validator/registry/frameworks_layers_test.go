package registry_test

// The tool layers beside the agent frameworks, through node:PATH (examples/frameworks): the
// Anthropic and OpenAI SDKs' runnable tools, Standard Schema libraries whose schemas are not
// plain objects, LangGraph's ToolNode and Genkit's tools, each through its own code path, as
// checkFramework runs the frameworks.

import (
	"testing"

	"github.com/toolproof/toolproof/harness/report"
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
