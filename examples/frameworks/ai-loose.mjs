// AI SDK tools as many teams write them. A jsonSchema() inputSchema without a validate function
// is shown to the model but checks nothing: the SDK's parseToolCall passes on whatever JSON the
// model wrote. A zod object strips keys the model invented (the schema shown to the model is
// closed).
// toolproof: toolproof run --validator node:examples/frameworks/ai-loose.mjs
import { jsonSchema, tool } from "ai";
import { z } from "zod";

export const tools = {
  get_weather: tool({
    description: "Current weather of a city",
    inputSchema: jsonSchema({
      type: "object",
      properties: {
        city: { type: "string", minLength: 1 },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
      },
      required: ["city", "unit"],
      additionalProperties: false,
    }),
    execute: async ({ city }) => ({ city, temperature: 21 }),
  }),
  set_labels: tool({
    description: "Set the labels of an issue",
    inputSchema: z.object({
      issue: z.number().int().min(1).max(1000000),
      labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
    }),
    execute: async () => "done",
  }),
};
