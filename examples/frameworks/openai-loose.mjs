// OpenAI SDK tools for `client.chat.completions.runTools` as many teams write them. A runnable
// function with `parse: JSON.parse` (the SDK's own example) shows the model a JSON Schema but
// checks nothing but the JSON: a missing `city`, a unit outside the enum, an array for the whole
// call all reach the function. A zodFunction's zod object strips keys the model invented (the
// schema shown to the model forbids them).
// toolproof: toolproof run --validator node:examples/frameworks/openai-loose.mjs
import { zodFunction } from "openai/helpers/zod";
import { z } from "zod";
import { labels, weather } from "./shared.mjs";

export const tools = [
  // JSON Schema parameters and JSON.parse: runTools checks nothing more.
  { type: "function", function: { name: "get_weather", description: weather.description,
    parameters: weather.jsonSchema, parse: JSON.parse, function: weather.run } },
  // A zod object, not .strict(): an invented key is stripped.
  zodFunction({ name: "set_labels", description: labels.description,
    parameters: z.object(labels.shape), function: labels.run }),
];
