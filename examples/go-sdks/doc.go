// Package gosdks checks the tool layers of the Go SDKs for model APIs through their own decode
// step: Anthropic's tool runner (anthropic-sdk-go's toolrunner, which unmarshals the model's
// input into the handler's struct) and openai-go (whose tool call carries the arguments as text
// the handler unmarshals). Each example gives toolproof the tool as the SDK describes it and a
// gate that is the SDK's own path up to the handler, which passes on what it was given.
//
// It is a nested module so that the SDKs stay out of the main module's dependencies.
package gosdks
