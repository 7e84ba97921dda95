// Genkit tools (`ai.defineTool` of genkit): what Genkit's generate does with a model's tool
// request, read from genkit 1.42 (@genkit-ai/ai lib/generate/resolve-tool-requests.mjs,
// @genkit-ai/core lib/action.mjs and lib/schema.mjs):
//
//   - the model plugin hands generate the tool request's `input` as parsed JSON (here: JSON.parse
//     of the raw text, a rejection when it throws);
//   - resolveToolRequest calls the tool action, whose `run` first does
//     parseSchema(input, {schema: inputSchema, jsonSchema: inputJsonSchema}): the zod schema is not
//     parsed, it is turned into JSON Schema (zod-to-json-schema, Genkit's zod 3) and checked with
//     ajv (or @cfworker/json-schema in "interpret" mode); the function gets the input unchanged;
//   - a ValidationError is not sent back to the model: it ends generate() with the error;
//   - the schema shown to the model is toToolDefinition(tool).inputSchema, the same JSON Schema.
//
// node: runs that parseSchema of the module's Genkit on the tool's own schemas; the tool's function
// does not run. A zod 4 inputSchema (not Genkit's `z`) becomes an empty JSON Schema there: the
// model is shown no schema and nothing is checked, which node: says on stderr.

import { dirname } from "node:path";
import { escapeToken } from "./gate.mjs";
import { gateError, importVia, parseJSON } from "./native-common.mjs";

/** A Genkit tool: an action function whose metadata says it is a tool. */
export const isGenkitTool = (def) => typeof def === "function" && /^tool(\.v2)?$/.test(def.__action?.actionType ?? "");

/** The name the model calls a Genkit tool by (the action's name after its last "/"). */
export const genkitToolName = (def) => def.__action.name.slice(def.__action.name.lastIndexOf("/") + 1);

/** Name, shown schema and gate of a Genkit tool; warn is told when the tool is shown no schema. */
export async function genkitTool(def, modulePath, warn) {
  const name = genkitToolName(def);
  const why = `the Genkit tool ${JSON.stringify(name)}`;
  const dir = dirname(modulePath);
  const schemas = await importVia("@genkit-ai/core/schema", "genkit", dir, why);
  const tools = await importVia("@genkit-ai/ai/tool", "genkit", dir, why);
  const parameters = tools.toToolDefinition(def).inputSchema;
  const { inputSchema, inputJsonSchema } = def.__action;
  if (inputSchema?._zod !== undefined && inputJsonSchema === undefined && parameters?.type === undefined && parameters?.properties === undefined) {
    warn(`${why}: its inputSchema is a zod 4 schema, which this Genkit turns into an empty JSON Schema: the model is shown no schema and nothing is checked (use \`import { z } from "genkit"\`)`);
  }
  const gate = (text) => {
    const p = parseJSON(text);
    if (p.rejected) return p.rejected;
    try {
      return { valid: true, value: schemas.parseSchema(p.value, { schema: inputSchema, jsonSchema: inputJsonSchema }) };
    } catch (e) {
      if (e?.name !== "ValidationError" && e?.constructor?.name !== "ValidationError") return gateError(e);
      return { valid: false, issues: issuesOf(e.detail?.errors) };
    }
  };
  return { name, description: def.__action.description ?? "", parameters, gate };
}

/** Issues of Genkit's ValidationError details ({path: "a.b" or "(root)", message}). */
function issuesOf(errors) {
  const list = Array.isArray(errors) ? errors : [];
  const told = `generate() ends with a ValidationError (the model is not told): ${list.map((e) => `${e.path}: ${e.message}`).join("; ")}`;
  const issues = list.map((e) => ({ path: pointerOf(e.path), message: told }));
  return issues.length > 0 ? issues : [{ path: "", message: told }];
}

/** JSON Pointer of a Genkit error path ("(root)", "a.b.0"). */
const pointerOf = (path) => (typeof path !== "string" || path === "(root)" || path === "" ? "" : path.split(".").map((s) => `/${escapeToken(s)}`).join(""));
