// Mastra tools (`createTool` of @mastra/core): what the tool's `execute` does with its input before
// the user's function, read from @mastra/core 1.71 (tools: Tool's constructor wraps execute):
// validateToolInput(tool.inputSchema, input, tool.id), which validates with the Standard Schema
// and, when that fails, tries again on the input with stringified JSON values parsed, with nulls
// stripped (so defaults fill them), and with `prompt` taken from `query`/`message`/`input`; its
// error object (message and validationErrors) is what execute returns, and so what the model sees.
// The raw argument text goes through JSON.parse first (the typical agent step). The schema shown
// to the model is standardSchemaToJSONSchema(inputSchema, {io: "input"}) of @mastra/core/schema
// (without a model's compatibility layer).

import { dirname } from "node:path";
import { escapeToken } from "./gate.mjs";
import { guarded, importVia, parseJSON } from "./native-common.mjs";

const MARKER = Symbol.for("mastra.core.tool.Tool");

/** A Mastra tool: createTool's Tool, marked with Symbol.for("mastra.core.tool.Tool"). */
export const isMastraTool = (def) => def !== null && typeof def === "object" && def[MARKER] === true;

/** Name, shown schema and gate of a Mastra tool (named by its id unless the export names it). */
export async function mastraTool(def, modulePath, exportedName) {
  const name = typeof exportedName === "string" ? exportedName : def.id;
  const why = `the Mastra tool ${JSON.stringify(name)}`;
  const dir = dirname(modulePath);
  const tools = await importVia("@mastra/core/tools", "@mastra/core", dir, why);
  const schemas = await importVia("@mastra/core/schema", "@mastra/core", dir, why);
  if (def.inputSchema === undefined) throw new Error(`${why} has no inputSchema: Mastra passes its input on unchecked`);
  const parameters = schemas.standardSchemaToJSONSchema(def.inputSchema, { io: "input" });
  const gate = async (text) => {
    const p = parseJSON(text);
    if (p.rejected) return p.rejected;
    const r = await guarded(() => tools.validateToolInput(def.inputSchema, p.value, def.id));
    if (r.thrown) return r.thrown;
    if (!r.value.error) return { valid: true, value: r.value.data };
    return { valid: false, issues: issuesOf(r.value.error) };
  };
  return { name, description: def.description ?? "", parameters, gate };
}

/** Issues of Mastra's validation error: one per place in validationErrors, with its message. */
function issuesOf(error) {
  const out = [];
  const walk = (node, path) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node.errors) && node.errors.length > 0) out.push({ path, message: error.message });
    for (const [k, v] of Object.entries(node.fields ?? {})) walk(v, `${path}/${escapeToken(k)}`);
  };
  walk(error.validationErrors, "");
  return out.length > 0 ? out : [{ path: "", message: error.message }];
}
