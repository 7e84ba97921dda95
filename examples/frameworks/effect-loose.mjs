// effect Schema tools as many teams write them, as {name, schema} tools with the Schema itself
// (node: joins its two Standard Schema converters: Schema.toStandardSchemaV1 checks,
// Schema.toStandardJSONSchemaV1 shows). That JSON Schema shows every Struct open
// (additionalProperties: true), and the decoder strips the keys it does not declare: a valid call
// with an extra key reaches the tool without it.
// toolproof: toolproof run --validator node:examples/frameworks/effect-loose.mjs
import * as Schema from "effect/Schema";
import { file, weather } from "./shared.mjs";

const fields = {
  city: Schema.String.check(Schema.isMinLength(1)),
  unit: Schema.Literals(["celsius", "fahrenheit"]),
};

export const tools = [
  { name: "get_weather", description: weather.description, schema: Schema.Struct(fields) },
  { name: "read_file", description: file.description,
    schema: Schema.Struct({ path: Schema.String.check(Schema.isMinLength(1)),
      limit: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10000 })) }) },
];
