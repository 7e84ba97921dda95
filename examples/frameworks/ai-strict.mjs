// The same AI SDK tools written so that the SDK's parse holds: zod schemas (the SDK validates
// the call with them), objects `.strict()` so that an invented key is rejected, not stripped.
// toolproof: toolproof run --validator node:examples/frameworks/ai-strict.mjs
import { tool } from "ai";
import { z } from "zod";

export const tools = {
  get_weather: tool({
    description: "Current weather of a city",
    inputSchema: z.object({
      city: z.string().min(1),
      unit: z.enum(["celsius", "fahrenheit"]),
    }).strict(),
    execute: async ({ city }) => ({ city, temperature: 21 }),
  }),
  set_labels: tool({
    description: "Set the labels of an issue",
    inputSchema: z.object({
      issue: z.number().int().min(1).max(1000000),
      labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
    }).strict(),
    execute: async () => "done",
  }),
};
