// The same OpenAI Agents SDK tools written so that the SDK's own parse is the gate: zod
// `parameters` (the SDK parses the call with them before `execute`), objects `.strict()` so that
// an invented key is rejected rather than stripped.
// toolproof: toolproof run --validator node:examples/frameworks/agents-strict.mjs
import { tool } from "@openai/agents";
import { z } from "zod";

export const tools = [
  tool({
    name: "get_weather",
    description: "Current weather of a city",
    parameters: z.object({
      city: z.string().min(1),
      unit: z.enum(["celsius", "fahrenheit"]),
    }).strict(),
    execute: async ({ city }) => `21 degrees in ${city}`,
  }),
  tool({
    name: "set_labels",
    description: "Set the labels of an issue",
    parameters: z.object({
      issue: z.number().int().min(1).max(1000000),
      labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
    }).strict(),
    execute: async () => "done",
  }),
];
