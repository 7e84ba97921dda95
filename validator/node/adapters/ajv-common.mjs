// Shared by the three Ajv adapters (ajv, ajv-coerce, ajv-strip): one Ajv instance per tool, the
// class chosen by the schema's $schema, strict schema mode (unknown keywords refused) but union types
// and untyped keywords allowed as JSON Schema allows them, all errors, ajv-formats.

import { createRequire } from "node:module";
import Ajv2020 from "ajv/dist/2020.js";
import Ajv2019 from "ajv/dist/2019.js";
import AjvDraft7 from "ajv";
import addFormats from "ajv-formats";
import { issue, escapeToken } from "./gate.mjs";
import { libraryVersion, serve } from "./protocol.mjs";

const draft6MetaSchema = createRequire(import.meta.url)("ajv/dist/refs/json-schema-draft-06.json");

/** The Ajv class for a schema's $schema. Anything else (draft-04, typos) goes to Ajv2020, which
 * refuses the unknown meta-schema: the tool is answered ok:false with Ajv's reason. */
function newAjv(schema, options) {
  const dialect = typeof schema?.$schema === "string" ? schema.$schema.replace(/^https?:\/\//, "").replace(/#$/, "") : "";
  if (dialect === "json-schema.org/draft-07/schema") return new AjvDraft7(options);
  if (dialect === "json-schema.org/draft-06/schema") {
    const ajv = new AjvDraft7(options);
    ajv.addMetaSchema(draft6MetaSchema);
    return ajv;
  }
  if (dialect === "json-schema.org/draft/2019-09/schema") return new Ajv2019(options);
  return new Ajv2020(options);
}

/** Errors that Ajv reports on the parent object are moved to the property they name. */
function errorPath(e) {
  const p = e.params ?? {};
  const name = p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty ?? p.propertyName ?? e.propertyName;
  return name === undefined ? e.instancePath : `${e.instancePath}/${escapeToken(name)}`;
}

/**
 * Runs an Ajv adapter. extraOptions are added to {strict, allErrors}; withValue says whether the
 * adapter passes on the data after validation (Ajv changes it in place when coercing or removing).
 */
export function serveAjv(name, extraOptions = {}, withValue = false) {
  serve({
    name,
    version: libraryVersion("ajv"),
    compile(parameters) {
      const ajv = newAjv(parameters, { strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allowUnionTypes: true, allErrors: true, ...extraOptions });
      addFormats(ajv);
      const validate = ajv.compile(parameters);
      return (data) => {
        if (validate(data)) return withValue ? { valid: true, value: data } : { valid: true };
        return { valid: false, issues: validate.errors.map((e) => issue(data, errorPath(e), e.message, e.keyword)) };
      };
    },
  });
}
