// effect Schema (effect/Schema of the effect package, read at 4.1): a schema is not a Standard
// Schema by itself; Schema.toStandardSchemaV1(schema, options) gives it `~standard.validate`
// (options.parseOptions decide, for one, whether an excess property is an error) and
// Schema.toStandardJSONSchemaV1(schema) gives the JSON Schema, each on its own copy. node: takes
// the schema itself (or either copy) and joins the two: the gate is the schema's own validate when
// it has one (the user's options), else toStandardSchemaV1's default; the schema shown to the
// model is toStandardJSONSchemaV1's input JSON Schema.

import { dirname } from "node:path";
import { importFrom } from "./native-common.mjs";

/** What may be an effect Schema: a function or object with an AST (checked with Schema.isSchema). */
export const mayBeEffectSchema = (s) => (typeof s === "function" || (s !== null && typeof s === "object")) && typeof s.ast === "object" && s.ast !== null;

/** The Standard Schema (validate and jsonSchema) of an effect Schema, or undefined for another schema. */
export async function effectStandard(schema, modulePath) {
  const S = await importFrom("effect/Schema", dirname(modulePath));
  if (S === undefined) return undefined; // no effect where the module is: the schema is another library's
  if (typeof S.isSchema !== "function" || !S.isSchema(schema)) return undefined;
  if (typeof S.toStandardSchemaV1 !== "function" || typeof S.toStandardJSONSchemaV1 !== "function") {
    throw new Error("this effect has no Schema.toStandardSchemaV1 and toStandardJSONSchemaV1 (toolproof reads 4.1)");
  }
  const checks = typeof schema["~standard"]?.validate === "function" ? schema["~standard"] : S.toStandardSchemaV1(schema)["~standard"];
  const shows = S.toStandardJSONSchemaV1(schema)["~standard"];
  return {
    "~standard": {
      vendor: checks.vendor ?? "effect",
      version: 1,
      validate: (value) => checks.validate(value),
      jsonSchema: shows.jsonSchema,
    },
  };
}
