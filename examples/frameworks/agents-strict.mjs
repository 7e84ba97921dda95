// The same OpenAI Agents SDK tools written so that the SDK's own parse is the gate: zod
// `parameters` (the SDK parses the call with them before `execute`), objects `.strict()` so that
// an invented key is rejected rather than stripped.
// toolproof: toolproof run --validator node:examples/frameworks/agents-strict.mjs
import { tool } from "@openai/agents";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

export const tools = [
  tool({ name: "get_weather", description: weather.description,
    parameters: z.object(weather.shape).strict(), execute: weather.run }),
  tool({ name: "set_labels", description: labels.description,
    parameters: z.object(labels.shape).strict(), execute: labels.run }),
];
