// LangGraph's prebuilt ToolNode (@langchain/langgraph/prebuilt): what a LangGraph agent does with
// a model's tool calls, read from @langchain/langgraph 1.7 (dist/prebuilt/tool_node.js):
//
//   - the chat model parses each call's argument text with JSON.parse into the AIMessage's
//     `tool_calls` (a failure never reaches the node);
//   - ToolNode.invoke({messages}) finds the last AIMessage and runs runTool for each call: the tool
//     of that name, `tool.invoke({...call, type: "tool_call"}, runtime)`, which is LangChain's
//     StructuredTool.call (zod's parse, or @cfworker/json-schema for a JSON Schema);
//   - with handleToolErrors (the default) anything thrown becomes a ToolMessage with status
//     "error" and content `Error: MESSAGE\n Please fix your mistakes.`, which the model is shown;
//   - the schema shown to the model is each tool's convertToOpenAITool(tool).function.parameters.
//
// Each call runs through a new ToolNode of the module's class, with the node's options, over copies
// of its tools whose `_call` records its input: the tools' own functions never run.

import { dirname } from "node:path";
import { errorText, gateError, importVia, parseJSON } from "./native-common.mjs";
import { isInputParsingError, isLangChainTool, issuesOf, probeTool } from "./native-langchain.mjs";

/** A LangGraph ToolNode: a runnable with `tools` and `runTool`. */
export const isToolNode = (node) =>
  node !== null && typeof node === "object" && Array.isArray(node.tools) && typeof node.runTool === "function" && typeof node.invoke === "function";

/**
 * The tools of a ToolNode as [name, prepare, where] entries: prepare gives a tool's name, shown
 * schema and gate, or throws why the tool is left out.
 */
export function toolNodeTools(node, modulePath) {
  return node.tools.map((def, i) => [def?.name, () => toolNodeTool(node, def, modulePath), `ToolNode tools[${i}]`]);
}

/** Name, shown schema and gate of one tool of a ToolNode. */
async function toolNodeTool(node, def, modulePath) {
  const why = `the ToolNode tool ${JSON.stringify(def?.name ?? null)}`;
  if (!isLangChainTool(def)) throw new Error(`${why}: node: reads a ToolNode's LangChain tools (tool(), StructuredTool) only`);
  const dir = dirname(modulePath);
  const calling = await importVia("@langchain/core/utils/function_calling", "@langchain/langgraph", dir, why);
  const messages = await importVia("@langchain/core/messages", "@langchain/langgraph", dir, why);
  const parameters = calling.convertToOpenAITool(def).function.parameters;
  const ToolNode = node.constructor;
  const gate = async (text) => {
    const p = parseJSON(text);
    if (p.rejected) return p.rejected;
    let ran = false;
    let passed;
    let thrown;
    const probe = probeTool(def, (args) => {
      ran = true;
      passed = args;
    });
    const invoke = probe.invoke;
    probe.invoke = async function (...args) {
      try {
        return await invoke.apply(this, args);
      } catch (e) {
        thrown = e;
        throw e;
      }
    };
    const call = { name: def.name, args: p.value, id: "toolproof", type: "tool_call" };
    const ai = new messages.AIMessage({ content: "", tool_calls: [call] });
    let out;
    try {
      out = await new ToolNode([probe], { handleToolErrors: node.handleToolErrors }).invoke({ messages: [ai] });
    } catch (e) {
      if (ran) return { valid: true, value: passed };
      return isInputParsingError(e) ? { valid: false, issues: issuesOf(e.message) } : gateError(e);
    }
    if (ran) return { valid: true, value: passed };
    if (thrown !== undefined && !isInputParsingError(thrown)) return gateError(thrown);
    const told = out?.messages?.[0]?.content;
    if (typeof told !== "string") return gateError(new Error(`the ToolNode answered without a tool message: ${errorText(out)}`));
    return { valid: false, issues: issuesOf(told) };
  };
  return { name: def.name, description: def.description ?? "", parameters, gate };
}
