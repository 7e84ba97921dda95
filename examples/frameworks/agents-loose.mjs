// OpenAI Agents SDK tools as many teams write them. A JSON Schema `parameters` (strict true or
// false) is shown to the model, but the SDK runs only JSON.parse before `execute`: a missing
// `city`, a unit outside the enum, `null` for the whole call all reach the tool. A zod object
// strips keys the model invented (the schema shown to the model forbids them).
// toolproof: toolproof run --validator node:examples/frameworks/agents-loose.mjs
import { tool } from "@openai/agents";
import { z } from "zod";

export const tools = [
  tool({
    name: "get_weather",
    description: "Current weather of a city",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", minLength: 1 },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
      },
      required: ["city", "unit"],
      additionalProperties: false,
    },
    strict: true,
    execute: async ({ city }) => `21 degrees in ${city}`,
  }),
  tool({
    name: "set_labels",
    description: "Set the labels of an issue",
    parameters: z.object({
      issue: z.number().int().min(1).max(1000000),
      labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
    }),
    execute: async () => "done",
  }),
];
