// The same arktype tools written strictly: objects that reject undeclared keys ("+": "reject",
// shown to the model with additionalProperties false), no parsing branch, and the JSON Schema
// shown to the model arktype's own (its Standard JSON Schema).
// toolproof: toolproof run --validator node:examples/frameworks/arktype-strict.mjs
import { type } from "arktype";
import { file, weather } from "./shared.mjs";

export const tools = [
  { name: "get_weather", description: weather.description,
    schema: type({ "+": "reject", city: "string > 0", unit: "'celsius' | 'fahrenheit'" }) },
  { name: "read_file", description: file.description,
    schema: type({ "+": "reject", path: "string > 0", limit: "1 <= number.integer <= 10000" }) },
];
