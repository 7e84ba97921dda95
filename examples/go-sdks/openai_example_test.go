package gosdks_test

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// forecastFunction is a function tool as openai-go declares it, in strict mode: every key
// required, no other key.
var forecastFunction = shared.FunctionDefinitionParam{
	Name:   "get_forecast",
	Strict: openai.Bool(true),
	Parameters: shared.FunctionParameters{
		"type": "object",
		"properties": map[string]any{
			"city": map[string]any{"type": "string"},
			"days": map[string]any{"type": "integer", "minimum": 1, "maximum": 7},
		},
		"required":             []string{"city", "days"},
		"additionalProperties": false,
	},
}

// ForecastArgs is what the handler unmarshals the call's arguments into.
type ForecastArgs struct {
	City string `json:"city"`
	Days int    `json:"days"`
}

// toolCallArguments is the SDK's path from a chat completion to a tool call's arguments: the
// response body decoded into an openai.ChatCompletion, the arguments text taken from its first
// tool call. Text that is not UTF-8 cannot travel in the response's JSON at all.
func toolCallArguments(args []byte) (string, error) {
	if !utf8.Valid(args) {
		return "", &validator.NotSentError{Why: "a tool call's arguments travel as a JSON string"}
	}
	body, err := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": map[string]any{
			"role": "assistant", "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
				"function": map[string]any{"name": forecastFunction.Name, "arguments": string(args)}}}}}},
	})
	if err != nil {
		return "", err
	}
	var completion openai.ChatCompletion
	if err := json.Unmarshal(body, &completion); err != nil {
		return "", err
	}
	return completion.Choices[0].Message.ToolCalls[0].Function.Arguments, nil
}

// handlerGate is a handler's own decode step, as openai-go's examples write it: the arguments
// unmarshaled into its struct, which is what it passes on.
var handlerGate = validator.Func("openai-go", func(tool.Tool) (func([]byte) (any, error), error) {
	return func(args []byte) (any, error) {
		text, err := toolCallArguments(args)
		if err != nil {
			return nil, err
		}
		var in ForecastArgs
		if err := json.Unmarshal([]byte(text), &in); err != nil {
			return nil, err
		}
		return in, nil
	}, nil
})

// openai-go hands over a tool call's arguments as the model wrote them, and says "validate the
// arguments in your code". A handler that only unmarshals them lets through what strict mode
// promises never comes, and which a model without strict mode (or another provider behind the
// same code) does send; and it refuses 1.0, an integer to JSON Schema, for its int.
func Example_openaiToolCall() {
	schema, err := json.Marshal(forecastFunction.Parameters)
	if err != nil {
		panic(err)
	}
	only, _ := mutators.Select("hallucinated_key,missing_required,null_value,out_of_range_enum,misnamed_key")
	rep, err := harness.Run([]tool.Tool{{Name: forecastFunction.Name, Parameters: schema}}, handlerGate,
		harness.Options{Mutators: only, Seed: 1, Checks: 20})
	if err != nil {
		panic(err)
	}
	for _, f := range rep.Findings {
		if f.Class == "valid" {
			fmt.Println(f.Class, f.Kind, string(f.Args))
			continue
		}
		fmt.Println(f.Class, f.Kind, "at", f.Path, f.Keyword)
	}
	// Output:
	// hallucinated_key missed at /verbose additionalProperties
	// misnamed_key missed at /city required
	// missing_required missed at /city required
	// null_value imprecise_location at /city type
	// null_value missed at /city type
	// null_value missed at /days type
	// out_of_range_enum imprecise_location at /days type
	// out_of_range_enum missed at /days maximum
	// out_of_range_enum missed at /days minimum
	// valid false_reject {"city":"","days":1.0}
}
