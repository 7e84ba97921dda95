// arktype types as many teams write them, as {name, schema, parameters?} tools. An object type
// keeps keys it does not declare, so a closed JSON Schema given as `parameters` (as OpenAI's strict
// mode wants it) is not what the type checks: an invented key reaches the tool. A
// `string.integer.parse` branch turns "20" into 20.
// toolproof: toolproof run --validator node:examples/frameworks/arktype-loose.mjs
import { type } from "arktype";
import { file, weather } from "./shared.mjs";

export const tools = [
  // Shown closed, checked open: an invented key is passed on.
  { name: "get_weather", description: weather.description, parameters: weather.jsonSchema,
    schema: type({ city: "string > 0", unit: "'celsius' | 'fahrenheit'" }) },
  // A string of digits parsed into the number.
  { name: "read_file", description: file.description,
    schema: type({ path: "string > 0", limit: "(1 <= number.integer <= 10000) | string.integer.parse" }) },
];
