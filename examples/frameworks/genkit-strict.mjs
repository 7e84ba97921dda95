// The same Genkit tools written with Genkit's own `z` (zod 3), objects `.strict()`: the model is
// shown their JSON Schema with additionalProperties false, and generate() checks each call against
// that JSON Schema (ajv) before the function runs.
// toolproof: toolproof run --validator node:examples/frameworks/genkit-strict.mjs
import { genkit, z } from "genkit";
import { labels, weather } from "./shared.mjs";

const ai = genkit({});

export const tools = [
  ai.defineTool({ name: "get_weather", description: weather.description,
    inputSchema: z.object({ city: z.string().min(1), unit: z.enum(["celsius", "fahrenheit"]) }).strict() }, weather.run),
  ai.defineTool({ name: "set_labels", description: labels.description,
    inputSchema: z.object({ issue: z.number().int().min(1).max(1000000),
      labels: z.array(z.enum(["bug", "docs", "feature"])).min(1) }).strict() }, labels.run),
];
