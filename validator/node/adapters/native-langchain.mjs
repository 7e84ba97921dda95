// LangChain tools (`tool()`, StructuredTool, DynamicStructuredTool of @langchain/core): what a
// LangChain agent does with a model's call, read from @langchain/core 1.4 (tools/index.js,
// output_parsers/openai_tools):
//
//   - the chat model parses the raw argument text with JSON.parse (parseToolCall; a failure is an
//     OutputParserException, the call never reaches the tool);
//   - the tool's `invoke({type: "tool_call", args, ...})` runs StructuredTool.call: a zod schema
//     parses the arguments (interopParseAsync: what zod outputs is what `func` gets), a JSON Schema
//     is checked with @cfworker/json-schema and the arguments go through as they are; a failure
//     is a ToolInputParsingException, whose message the agent shows the model;
//   - the schema shown to the model is convertToOpenAITool(tool).function.parameters.
//
// The tool's own `_call` (its `func`) never runs: the call goes through a copy of the tool whose
// `_call` records what it was given.

import { dirname } from "node:path";
import { gateError, importVia, parseJSON } from "./native-common.mjs";

/** A LangChain structured tool: a Runnable in the "langchain"/"tools" namespace with a schema. */
export const isLangChainTool = (def) =>
  Array.isArray(def?.lc_namespace) && def.lc_namespace.includes("tools") && typeof def.invoke === "function" && typeof def._call === "function" && def.schema !== undefined;

/** Name, shown schema and gate of a LangChain tool. */
export async function langChainTool(def, modulePath) {
  const why = `the LangChain tool ${JSON.stringify(def.name)}`;
  const calling = await importVia("@langchain/core/utils/function_calling", "@langchain/core", dirname(modulePath), why);
  const parameters = calling.convertToOpenAITool(def).function.parameters;
  const gate = async (text) => {
    const p = parseJSON(text);
    if (p.rejected) return p.rejected;
    let passed;
    let ran = false;
    const probe = probeTool(def, (args) => {
      ran = true;
      passed = args;
    });
    try {
      await probe.invoke({ type: "tool_call", id: "toolproof", name: def.name, args: p.value });
    } catch (e) {
      // After _call, what throws is the handling of the stub's output, not the gate.
      if (ran) return { valid: true, value: passed };
      if (isInputParsingError(e)) {
        return { valid: false, issues: issuesOf(e.message) };
      }
      return gateError(e);
    }
    if (!ran) return gateError(new Error("the tool's invoke returned without calling _call"));
    return { valid: true, value: passed };
  };
  return { name: def.name, description: def.description ?? "", parameters, gate };
}

/** A copy of the LangChain tool def whose `_call` (its `func`) records its input and does nothing else. */
export function probeTool(def, record) {
  return Object.create(def, {
    _call: {
      value: (args) => {
        record(args);
        return def.responseFormat === "content_and_artifact" ? ["", undefined] : "";
      },
    },
  });
}

/** Whether e is LangChain's ToolInputParsingException (a verdict on the input, not a fault). */
export const isInputParsingError = (e) => e?.name === "ToolInputParsingException" || e?.constructor?.name === "ToolInputParsingException";

/**
 * Issues of a ToolInputParsingException's message, which is what the agent shows the model; the
 * paths come from zod's prettified lines ("✖ MESSAGE\n  → at a.b") when the message has them.
 */
export function issuesOf(message) {
  const paths = [...message.matchAll(/→ at ([^\n]+)/g)].map((m) => m[1]);
  if (paths.length === 0) return [{ path: "", message }];
  return paths.map((p) => ({ path: pointerOf(p), message }));
}

/** JSON Pointer of zod's prettified path (a.b[0]["c d"]). */
function pointerOf(p) {
  const out = [];
  for (const m of p.matchAll(/\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\.?([^.[\]]+)/g)) {
    const seg = m[1] ?? (m[2] !== undefined ? JSON.parse(`"${m[2]}"`) : m[3]);
    out.push("/" + String(seg).replaceAll("~", "~0").replaceAll("/", "~1"));
  }
  return out.join("");
}
