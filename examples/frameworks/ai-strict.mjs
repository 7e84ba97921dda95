// The same AI SDK tools written so that the SDK's parse holds: zod schemas (the SDK validates
// the call with them), objects `.strict()` so that an invented key is rejected, not stripped.
// toolproof: toolproof run --validator node:examples/frameworks/ai-strict.mjs
import { tool } from "ai";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

export const tools = {
  get_weather: tool({ description: weather.description,
    inputSchema: z.object(weather.shape).strict(), execute: weather.run }),
  set_labels: tool({ description: labels.description,
    inputSchema: z.object(labels.shape).strict(), execute: labels.run }),
};
