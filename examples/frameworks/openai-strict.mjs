// The same OpenAI SDK runTools tools written so that the tool's own parse is the gate: zodFunction
// (runTools parses the arguments with its zod schema before the function), objects `.strict()` so
// that an invented key is rejected rather than stripped.
// toolproof: toolproof run --validator node:examples/frameworks/openai-strict.mjs
import { zodFunction } from "openai/helpers/zod";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

export const tools = [
  zodFunction({ name: "get_weather", description: weather.description,
    parameters: z.object(weather.shape).strict(), function: weather.run }),
  zodFunction({ name: "set_labels", description: labels.description,
    parameters: z.object(labels.shape).strict(), function: labels.run }),
];
