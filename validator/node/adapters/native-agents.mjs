// OpenAI Agents SDK function tools (`tool()` of @openai/agents): what the SDK's runner does with a
// model's call before `execute`, read from @openai/agents-core 0.20 (tool.mjs, runner/toolExecution):
//
//   - prepareFunctionToolInput(tool, rawText) runs the tool's own parser on the raw argument text:
//     JSON.parse, then for zod `parameters` zod's parse (with strict: true after
//     stripStrictNullsForZodSchema), for Standard Schema `parameters` its validate, and for a JSON
//     Schema `parameters` nothing at all (the parser is JSON.parse alone);
//   - when the parser throws, `invoke` does not run `execute`; the model is told what the tool's
//     errorFunction returns (by default "An error occurred while running the tool. Please try
//     again."), which this reader gets by calling `invoke` on the rejected text;
//   - the schema shown to the model is the tool's `parameters` (JSON Schema) as the SDK built it.

import { dirname } from "node:path";
import { errorText, gateError, guarded, importVia, standardIssues } from "./native-common.mjs";

/** An Agents SDK function tool: {type: "function", name, parameters, strict, invoke}. */
export const isAgentsTool = (def) =>
  def?.type === "function" && typeof def.invoke === "function" && typeof def.needsApproval === "function" && typeof def.parameters === "object" && typeof def.strict === "boolean";

/** Name, shown schema and gate of an Agents SDK function tool. */
export async function agentsTool(def, modulePath) {
  const why = `the OpenAI Agents SDK tool ${JSON.stringify(def.name)}`;
  const dir = dirname(modulePath);
  const internal = await importVia("@openai/agents-core/utils/internal", "@openai/agents", dir, why);
  const core = await importVia("@openai/agents-core", "@openai/agents", dir, why);
  if (typeof internal.prepareFunctionToolInput !== "function" || typeof core.RunContext !== "function") {
    throw new Error(`${why}: this @openai/agents-core has no prepareFunctionToolInput (toolproof reads 0.20)`);
  }
  if (internal.prepareFunctionToolInput(def, "{}") === undefined) {
    throw new Error(`${why} was made by another copy of @openai/agents-core than the one the module imports`);
  }
  const gate = async (text) => {
    const r = await guarded(() => internal.prepareFunctionToolInput(def, text));
    if (r.thrown) return r.thrown;
    const result = r.value.result;
    if (result.success) return { valid: true, value: result.value };
    // What the model is told: the SDK's invoke on the same text, which fails the same parse and
    // answers with the tool's errorFunction (execute never runs).
    let told;
    try {
      const out = await def.invoke(new core.RunContext(), text, undefined);
      told = typeof out === "string" ? out : JSON.stringify(out);
    } catch (e) {
      if (e?.constructor?.name === "InvalidToolInputError" || /Invalid JSON input for tool/.test(errorText(e))) told = errorText(e);
      else return gateError(e);
    }
    return { valid: false, issues: standardIssues(result.error?.issues, told) };
  };
  return { name: def.name, description: def.description ?? "", parameters: def.parameters, gate };
}
