// The same effect Schema tools written strictly: the gate is Schema.toStandardSchemaV1 with
// `onExcessProperty: "error"`, and the model is shown the same closed contract,
// Schema.toJsonSchemaDocument with `onExcessProperty: "error"` (the Standard JSON Schema
// converter has no such option and shows every Struct open).
// toolproof: toolproof run --validator node:examples/frameworks/effect-strict.mjs
import * as Schema from "effect/Schema";
import { file, weather } from "./shared.mjs";

/** A tool whose gate and shown schema both reject keys the Struct does not declare. */
const closed = (name, description, struct) => ({
  name,
  description,
  schema: Schema.toStandardSchemaV1(struct, { parseOptions: { onExcessProperty: "error" } }),
  parameters: Schema.toJsonSchemaDocument(struct, { onExcessProperty: "error" }).schema,
});

export const tools = [
  closed("get_weather", weather.description, Schema.Struct({
    city: Schema.String.check(Schema.isMinLength(1)),
    unit: Schema.Literals(["celsius", "fahrenheit"]),
  })),
  closed("read_file", file.description, Schema.Struct({
    path: Schema.String.check(Schema.isMinLength(1)),
    limit: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10000 })),
  })),
];
