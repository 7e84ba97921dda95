// The same Anthropic SDK tools written so that the tool's own parse is the gate: betaZodTool (the
// runner parses the input with its zod schema before `run`), objects `.strict()` so that an
// invented key is rejected rather than stripped.
// toolproof: toolproof run --validator node:examples/frameworks/anthropic-strict.mjs
import { betaZodTool } from "@anthropic-ai/sdk/helpers/beta/zod";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

export const tools = [
  betaZodTool({ name: "get_weather", description: weather.description,
    inputSchema: z.object(weather.shape).strict(), run: weather.run }),
  betaZodTool({ name: "set_labels", description: labels.description,
    inputSchema: z.object(labels.shape).strict(), run: labels.run }),
];
