// Anthropic SDK runnable tools as many teams write them. betaTool's JSON Schema is shown to the
// model, but its parse hands the input on as it is: the tool runner calls `run` on a missing
// `city`, a unit outside the enum, an invented key. A betaZodTool's zod object strips keys the
// model invented (the schema shown to the model forbids them).
// toolproof: toolproof run --validator node:examples/frameworks/anthropic-loose.mjs
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import { betaZodTool } from "@anthropic-ai/sdk/helpers/beta/zod";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

export const tools = [
  // A JSON Schema input: the runner checks it with nothing.
  betaTool({ name: "get_weather", description: weather.description,
    inputSchema: weather.jsonSchema, run: weather.run }),
  // A zod object, not .strict(): an invented key is stripped.
  betaZodTool({ name: "set_labels", description: labels.description,
    inputSchema: z.object(labels.shape), run: labels.run }),
];
