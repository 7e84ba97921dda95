// OpenAI Agents SDK tools as many teams write them. A JSON Schema `parameters` (strict true or
// false) is shown to the model, but the SDK runs only JSON.parse before `execute`: a missing
// `city`, a unit outside the enum, `null` for the whole call all reach the tool. A zod object
// strips keys the model invented (the schema shown to the model forbids them).
// toolproof: toolproof run --validator node:examples/frameworks/agents-loose.mjs
import { tool } from "@openai/agents";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

export const tools = [
  // JSON Schema parameters: the SDK checks them with nothing but JSON.parse.
  tool({ name: "get_weather", description: weather.description,
    parameters: weather.jsonSchema, strict: true, execute: weather.run }),
  // A zod object, not .strict(): an invented key is stripped.
  tool({ name: "set_labels", description: labels.description,
    parameters: z.object(labels.shape), execute: labels.run }),
];
