// OpenAI SDK function tools for `client.chat.completions.runTools` (the openai package): zodFunction()
// tools and runnable functions ({type: "function", function: {name, function, parse?, parameters}}).
// Read from openai 7.59 (lib/AbstractChatCompletionRunner.mjs, lib/parser.mjs, helpers/zod.mjs):
//
//   - runTools turns a zodFunction tool (branded auto-parseable) into a runnable function whose
//     `parse` is the tool's $parseRaw: JSON.parse, then the zod schema's `parse`;
//   - each completion is first parsed by parseChatCompletion: a strict or auto-parseable tool's
//     arguments go through JSON.parse (and $parseRaw) there, and an exception out of it ends the
//     whole run with an OpenAIError (the call never reaches the function, the model is not told);
//   - runToolCall then awaits `fn.parse(arguments)`; when it throws, the tool message the model
//     gets is the error's message and the function does not run; else the function gets what parse
//     returned (a runnable function without `parse` gets the raw argument text);
//   - the schema shown to the model is the tool's `function.parameters`.
//
// Each call here is a real runTools run on a client whose fetch answers, in process, one completion
// with the tool call and one that ends the run; the tool runs as a copy whose function records what
// it was given, so the module's own function never runs.

import { dirname } from "node:path";
import { gateError, importVia, standardIssues } from "./native-common.mjs";

/** A runTools tool: zodFunction()'s auto-parseable tool or a runnable function. */
export const isOpenAITool = (def) =>
  def?.type === "function" &&
  def.function !== null &&
  typeof def.function === "object" &&
  (def.$brand === "auto-parseable-tool" || typeof def.function.function === "function");

/** A chat completion with one assistant message. */
const completion = (message) => ({
  id: "toolproof",
  object: "chat.completion",
  created: 0,
  model: "toolproof",
  choices: [{ index: 0, logprobs: null, finish_reason: message.tool_calls ? "tool_calls" : "stop", message: { role: "assistant", content: null, refusal: null, ...message } }],
});

/** A fetch that answers the tool call of name with text, then a completion without tool calls. */
function fakeFetch(name, text) {
  let turn = 0;
  return async () => {
    const call = { id: "toolproof", type: "function", function: { name, arguments: text } };
    const body = turn++ === 0 ? completion({ tool_calls: [call] }) : completion({ content: "" });
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  };
}

/** A copy of def whose function records its argument. */
function probeOf(def, record) {
  const fn = (args) => {
    record(args);
    return "";
  };
  if (def.$brand !== "auto-parseable-tool") return { ...def, function: { ...def.function, function: fn } };
  return Object.defineProperties({ ...def }, {
    $brand: { value: def.$brand },
    $parseRaw: { value: def.$parseRaw },
    $callback: { value: fn },
  });
}

/** Name, shown schema and gate of a runTools tool. */
export async function openAITool(def, modulePath) {
  const name = def.function.name;
  const why = `the OpenAI SDK tool ${JSON.stringify(name)}`;
  if (typeof name !== "string" || name === "") throw new Error(`${why}: a runnable function without function.name`);
  const openai = await importVia("openai", "openai", dirname(modulePath), why);
  const OpenAI = openai.default ?? openai.OpenAI;
  if (typeof OpenAI !== "function" || typeof OpenAI.prototype !== "object") throw new Error(`${why}: the openai package exports no client class`);
  const gate = async (text) => {
    let ran = false;
    let passed;
    const probe = probeOf(def, (args) => {
      ran = true;
      passed = args;
    });
    const client = new OpenAI({ apiKey: "toolproof", baseURL: "http://toolproof.invalid/v1", fetch: fakeFetch(name, text), maxRetries: 0 });
    let runner;
    try {
      runner = client.chat.completions.runTools({ model: "toolproof", messages: [{ role: "user", content: "" }], tools: [probe] });
      await runner.done();
    } catch (e) {
      if (ran) return { valid: true, value: passed };
      if (e instanceof openai.OpenAIError && !(e.cause instanceof RangeError)) return { valid: false, issues: [{ path: "", message: e.message }] };
      return gateError(e);
    }
    if (ran) return { valid: true, value: passed };
    const told = runner.messages.find((m) => m.role === "tool")?.content;
    if (typeof told !== "string") return gateError(new Error("runTools ended without a tool message nor a call of the function"));
    return { valid: false, issues: issuesOf(told) };
  };
  return { name, description: def.function.description ?? "", parameters: def.function.parameters ?? {}, gate };
}

/** Issues of the tool message: zod's issue list at their paths when the message is one. */
function issuesOf(told) {
  let list;
  try {
    list = JSON.parse(told);
  } catch {
    return [{ path: "", message: told }];
  }
  return Array.isArray(list) ? standardIssues(list, told) : [{ path: "", message: told }];
}
