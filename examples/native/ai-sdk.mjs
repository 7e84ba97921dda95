// A Vercel AI SDK tool set: tool({ description, inputSchema }). The SDK shows the model a closed
// schema (it adds additionalProperties: false) and parses the call with the zod schema as it is.
// toolproof: go run ./cmd/toolproof run --validator node:examples/native/ai-sdk.mjs
import { tool } from "ai";
import { z } from "zod";

export const tools = {
  get_weather: tool({
    description: "Current weather of a city",
    inputSchema: z.object({
      city: z.string().min(1),
      unit: z.enum(["celsius", "fahrenheit"]).optional(),
    }),
    execute: async ({ city }) => ({ city, temperature: 21 }),
  }),
  list_events: tool({
    description: "Calendar events of a day",
    inputSchema: z.object({
      day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      max: z.number().int().min(1).max(50).optional(),
    }).strict(),
    execute: async () => [],
  }),
};
