// AI SDK tools as many teams write them. A jsonSchema() inputSchema without a validate function
// is shown to the model but checks nothing: the SDK's parseToolCall passes on whatever JSON the
// model wrote. A zod object strips keys the model invented (the schema shown to the model is
// closed).
// toolproof: toolproof run --validator node:examples/frameworks/ai-loose.mjs
import { jsonSchema, tool } from "ai";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

export const tools = {
  // jsonSchema() without a validate function: nothing checks the call.
  get_weather: tool({ description: weather.description,
    inputSchema: jsonSchema(weather.jsonSchema), execute: weather.run }),
  // A zod object, not .strict(): an invented key is stripped.
  set_labels: tool({ description: labels.description,
    inputSchema: z.object(labels.shape), execute: labels.run }),
};
