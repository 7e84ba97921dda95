package gosdks_test

import (
	"context"
	"encoding/json"
	"fmt"

	anthropic "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/toolrunner"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// WeatherInput is a handler's input struct; the SDK infers the tool's schema from its tags.
type WeatherInput struct {
	City string `json:"city" jsonschema:"required,description=the city"`
	Unit string `json:"unit,omitempty" jsonschema:"enum=celsius,enum=fahrenheit"`
	Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=7"`
}

// received is where a handler puts the input it was called with, one per call (the context
// carries it, so that calls may run side by side).
type received struct{}

// weatherTool is the tool as Anthropic's tool runner holds it: its handler records its input.
func weatherTool() (anthropic.BetaTool, error) {
	return toolrunner.NewBetaToolFromJSONSchema("get_weather", "the forecast for a city",
		func(ctx context.Context, in WeatherInput) (anthropic.BetaToolResultBlockParamContentUnion, error) {
			*ctx.Value(received{}).(*WeatherInput) = in
			return anthropic.BetaToolResultBlockParamContentUnion{OfText: &anthropic.BetaTextBlockParam{Text: "sunny"}},
				nil
		})
}

// runnerGate is the tool runner's path from the model's input to the handler: BetaTool.Execute,
// which unmarshals the input into the handler's struct. What the handler got is passed on.
func runnerGate(bt anthropic.BetaTool) validator.Validator {
	return validator.Func("anthropic-toolrunner", func(tool.Tool) (func([]byte) (any, error), error) {
		return func(args []byte) (any, error) {
			var in WeatherInput
			ctx := context.WithValue(context.Background(), received{}, &in)
			if _, err := bt.Execute(ctx, json.RawMessage(args)); err != nil {
				return nil, err
			}
			return in, nil
		}, nil
	})
}

// The Anthropic tool runner checks no schema: the handler gets whatever encoding/json makes of
// the model's input. With the tool's objects closed (Options.Close, as the SDK's reflector
// intends), an unknown key is dropped, "City" binds to city, a null becomes the zero value, and
// no enum or bound is enforced; 7.5 for an integer is refused, but at the root, not at /days.
func Example_anthropicToolRunner() {
	bt, err := weatherTool()
	if err != nil {
		panic(err)
	}
	schema, err := json.Marshal(bt.InputSchema())
	if err != nil {
		panic(err)
	}
	only, _ := mutators.Select("hallucinated_key,out_of_range_enum,null_value,misnamed_key")
	rep, err := harness.Run([]tool.Tool{{Name: bt.Name(), Parameters: schema}}, runnerGate(bt),
		harness.Options{Mutators: only, Close: true, Seed: 1, Checks: 20})
	if err != nil {
		panic(err)
	}
	for _, f := range rep.Findings {
		fmt.Println(f.Class, f.Kind, "at", f.Path, f.Keyword)
	}
	// Output:
	// hallucinated_key missed at /verbose additionalProperties
	// misnamed_key missed at /city required
	// null_value missed at /city type
	// null_value missed at /days type
	// out_of_range_enum imprecise_location at /days type
	// out_of_range_enum missed at /days maximum
	// out_of_range_enum missed at /days minimum
	// out_of_range_enum missed at /unit enum
}
