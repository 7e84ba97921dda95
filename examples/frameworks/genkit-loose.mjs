// Genkit tools as a team on zod 4 writes them: `ai.defineTool` with the project's own `z` from
// "zod". Genkit 1.42 turns an inputSchema into JSON Schema with its own zod 3 tooling, which makes
// an empty schema of a zod 4 one: the model is shown no schema, and generate() checks nothing
// before the function runs (node: says so on stderr; the run has no schema to distort).
// toolproof: toolproof run --validator node:examples/frameworks/genkit-loose.mjs
import { genkit } from "genkit";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

const ai = genkit({});

export const tools = [
  ai.defineTool({ name: "get_weather", description: weather.description,
    inputSchema: z.object(weather.shape).strict() }, weather.run),
  ai.defineTool({ name: "set_labels", description: labels.description,
    inputSchema: z.object(labels.shape) }, labels.run),
];
