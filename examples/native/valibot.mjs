// A valibot tool: strictObject, the JSON Schema for the model from @valibot/to-json-schema.
// toolproof: go run ./cmd/toolproof run --validator node:examples/native/valibot.mjs
import * as v from "valibot";

export const tools = [
  {
    name: "greet",
    description: "Greet someone a few times",
    schema: v.strictObject({
      name: v.pipe(v.string(), v.minLength(1)),
      times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5))),
    }),
  },
];
