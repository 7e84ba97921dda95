// Anthropic SDK runnable tools (`betaZodTool`, `betaTool`, `betaStandardSchemaTool` of
// @anthropic-ai/sdk/helpers/beta/*): what the SDK's tool runner does with a model's tool_use, read
// from @anthropic-ai/sdk 1.17 (lib/tools/BetaToolRunner.mjs, lib/tools/BetaRunnableTool.mjs):
//
//   - the API hands the runner the tool_use's `input` as parsed JSON (here: JSON.parse of the raw
//     text, a rejection when it throws);
//   - runToolCall calls runRunnableTool(tool, input, context): `tool.parse(input)` (betaZodTool:
//     zod's `parse`; betaStandardSchemaTool: the Standard Schema's validate; betaTool: the input
//     as it is, nothing checked), then `tool.run` on what parse returned; anything thrown becomes
//     an is_error tool_result whose content (`Error: MESSAGE`) is what the model is told;
//   - the schema shown to the model is the tool's `input_schema` (the runner sends the tool's API
//     fields only).
//
// The tool's own `run` never runs: the call goes through a copy whose `run` records its input.

import { dirname } from "node:path";
import { gateError, importVia, parseJSON, standardIssues } from "./native-common.mjs";

/** An Anthropic SDK runnable custom tool: {type: "custom", name, input_schema, run, parse}. */
export const isAnthropicTool = (def) =>
  def?.type === "custom" && typeof def.run === "function" && typeof def.parse === "function" && typeof def.input_schema === "object";

/** Exceptions that are the gate failing, not a verdict on the input. */
const FAULTS = new Set(["RangeError", "TypeError", "ReferenceError", "InternalError"]);

/** Name, shown schema and gate of an Anthropic SDK runnable tool. */
export async function anthropicTool(def, modulePath) {
  const why = `the Anthropic SDK tool ${JSON.stringify(def.name)}`;
  const runnable = await importVia("@anthropic-ai/sdk/lib/tools/BetaRunnableTool", "@anthropic-ai/sdk", dirname(modulePath), why);
  if (typeof runnable.runRunnableTool !== "function") {
    throw new Error(`${why}: this @anthropic-ai/sdk has no runRunnableTool (toolproof reads 1.17)`);
  }
  const gate = async (text) => {
    const p = parseJSON(text);
    if (p.rejected) return p.rejected;
    let ran = false;
    let passed;
    let thrown;
    const probe = {
      ...def,
      parse: (input) => {
        try {
          return def.parse(input);
        } catch (e) {
          thrown = e;
          throw e;
        }
      },
      run: (input) => {
        ran = true;
        passed = input;
        return "";
      },
    };
    let outcome;
    try {
      outcome = await runnable.runRunnableTool(probe, p.value, { toolUse: { id: "toolproof", name: def.name, input: p.value } });
    } catch (e) {
      return gateError(e);
    }
    if (!outcome.isError && ran) return { valid: true, value: passed };
    if (thrown === undefined) return gateError(new Error(`runRunnableTool answered is_error without a parse error: ${String(outcome.content)}`));
    if (!Array.isArray(thrown?.issues) && FAULTS.has(thrown?.name)) return gateError(thrown);
    const told = typeof outcome.content === "string" ? outcome.content : JSON.stringify(outcome.content);
    return { valid: false, issues: standardIssues(thrown?.issues, told) };
  };
  return { name: def.name, description: def.description ?? "", parameters: def.input_schema, gate };
}
