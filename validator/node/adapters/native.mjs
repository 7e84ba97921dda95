// toolproof/1 adapter for a module of native tools: `node native.mjs PATH` loads the module (ESM
// or CommonJS; PATH relative to the working directory) and serves its tools, each gated by its own
// schema, the way an agent built on it gates a model's tool call.
//
// The module exports `tools` (or a default export, or module.exports) as
//   - an array of { name, description, schema, parameters? }, or
//   - an object mapping names to { description, schema, parameters? }, or
//   - a Vercel AI SDK tool set, names to tool({ description, inputSchema }), or
//   - framework tools, in an array or an object of names: OpenAI Agents SDK tool()s
//     (native-agents.mjs), Anthropic SDK betaZodTool()/betaTool()s (native-anthropic.mjs),
//     OpenAI SDK zodFunction()s and runTools functions (native-openai.mjs), LangChain tools
//     (native-langchain.mjs), Mastra createTool()s (native-mastra.mjs), Genkit ai.defineTool()s
//     (native-genkit.mjs), each gated through its framework's own path; or
//   - an MCP TypeScript SDK McpServer (as `tools`, `server` or the default export), served in
//     process (native-mcp.mjs); or
//   - a LangGraph ToolNode (as `tools`, `toolNode` or the default export), its tools called through
//     the node (native-langgraph.mjs).
// A tool object of any other shape is left out with the reason, never checked by a guess. A gate
// that throws on an input answers gate_error with the exception's message and stack.
//
// `schema` is the gate: a Standard Schema (`schema['~standard'].validate(value)`, zod 4, valibot,
// arktype, whose types are functions; it may return a Promise), an effect Schema (its two
// Standard Schema converters joined, native-effect.mjs), or a JSON Schema object (TypeBox types
// are JSON Schema), checked with TypeBox Compile. The JSON Schema shown to the model is
// `parameters` when given, else the library's own: Standard JSON Schema
// (`~standard.jsonSchema.input`, zod 4, arktype, effect), valibot's @valibot/to-json-schema, or
// the JSON Schema object itself.
//
// A call goes through what a typical agent does: JSON.parse of the raw text (a rejection when it
// throws; no check of the root), then the schema. The value passed on is the schema's output. An
// AI SDK tool is parsed as the SDK's parseToolCall does (empty text -> {}, secure JSON parse,
// asSchema(inputSchema) and its validate), with the `@ai-sdk/provider-utils` that the module's
// `ai` package uses; its issues carry the text the SDK sends the model back (InvalidToolInputError).

import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { escapeToken, parseJSONText, pointer } from "./gate.mjs";
import { agentsTool, isAgentsTool } from "./native-agents.mjs";
import { anthropicTool, isAnthropicTool } from "./native-anthropic.mjs";
import { gateError } from "./native-common.mjs";
import { effectStandard, mayBeEffectSchema } from "./native-effect.mjs";
import { genkitTool, genkitToolName, isGenkitTool } from "./native-genkit.mjs";
import { isLangChainTool, langChainTool } from "./native-langchain.mjs";
import { isMastraTool, mastraTool } from "./native-mastra.mjs";
import { isToolNode, toolNodeTools } from "./native-langgraph.mjs";
import { isMcpServer, mcpServerTools } from "./native-mcp.mjs";
import { isOpenAITool, openAITool } from "./native-openai.mjs";
import { ensureTypeScript } from "./native-typescript.mjs";
import { serve } from "./protocol.mjs";

const log = (text) => process.stderr.write(`toolproof native: ${text}\n`);
const errorText = (e) => (e instanceof Error ? e.message : String(e));

const modulePath = process.argv[2];
const shownName = process.argv[3] ?? modulePath; // the path as the user wrote it, for reports
if (!modulePath) {
  log("usage: node native.mjs PATH-TO-TOOL-MODULE [NAME-IN-REPORTS]");
  process.exit(2);
}
const absolute = resolve(process.cwd(), modulePath);
if (!existsSync(absolute)) {
  log(`no such module: ${absolute}`);
  process.exit(2);
}
// Packages (typebox, the AI SDK, converters) are looked up from the module first, so that the
// module's own copy of a library does the work; then from these adapters.
const fromModule = createRequire(absolute);
const fromAdapters = createRequire(import.meta.url);

/** Imports a package as the module would (or as these adapters would); undefined when neither can. */
async function importFrom(specifier, ...requires) {
  for (const req of requires.length ? requires : [fromModule, fromAdapters]) {
    let path;
    try {
      path = req.resolve(specifier);
    } catch {
      continue;
    }
    return import(pathToFileURL(path).href);
  }
  return undefined;
}

await ensureTypeScript(absolute, log); // a .ts module: Node's type stripping, or one line saying what to do
const mod = await import(pathToFileURL(absolute).href);

/** The name a tool gives itself: `name`, an OpenAI SDK tool's `function.name`, a Genkit action's. */
const ownName = (t) => (isGenkitTool(t) ? genkitToolName(t) : (t?.name ?? (isOpenAITool(t) ? t.function.name : undefined)));

/** The tools the module exports, as [name, definition, where] triples. */
function exported(m) {
  let set = m.tools ?? m.default;
  if (set && !Array.isArray(set) && set.tools !== undefined && m.tools === undefined) set = set.tools; // module.exports = { tools }
  if (Array.isArray(set)) return set.map((t, i) => [ownName(t) ?? (isMastraTool(t) ? t.id : undefined), t, `tools[${i}]`]);
  if (set && typeof set === "object") return Object.entries(set).map(([k, t]) => [isMastraTool(t) ? k : ownName(t) ?? k, t, JSON.stringify(k)]);
  throw new Error("the module exports no `tools` (nor a default export) that is an array or an object of tools");
}

/** A Standard Schema: an object, or a function (arktype's types), whose `~standard` validates. */
const isStandard = (s) => s !== null && (typeof s === "object" || typeof s === "function") && typeof s["~standard"]?.validate === "function";
const isPlainSchema = (s) => s !== null && typeof s === "object" && !Array.isArray(s) && !isStandard(s);

/** Segments of a Standard Schema issue path (keys, or {key} objects as valibot gives). */
const segments = (path) => (Array.isArray(path) ? path.map((s) => (s !== null && typeof s === "object" ? s.key : s)) : []);

/** toolproof/1 issues of Standard Schema issues; zod's unrecognized keys at each key. */
function standardIssues(list) {
  const out = [];
  for (const i of list ?? []) {
    const path = pointer(segments(i?.path));
    const message = typeof i?.message === "string" ? i.message : String(i?.message);
    if (i?.code === "unrecognized_keys" && Array.isArray(i.keys)) {
      for (const k of i.keys) out.push({ path: `${path}/${escapeToken(k)}`, message });
    } else {
      out.push({ path, message });
    }
  }
  return out.length > 0 ? out : [{ path: "", message: "arguments do not satisfy the tool schema" }];
}

/** The typical agent's JSON step: JSON.parse, a rejection when it throws. */
function parseJSON(text) {
  try {
    return { value: parseJSONText(text) };
  } catch (e) {
    const at = /position (\d+)/.exec(e.message);
    return { rejected: { valid: false, issues: [{ path: "", message: `arguments are not valid JSON${at ? ` (at position ${at[1]})` : ""}` }] } };
  }
}

/** Gate of a Standard Schema: JSON.parse, then ~standard.validate; passes on its value. */
function standardGate(schema) {
  const settle = (r) => (r.issues ? { valid: false, issues: standardIssues(r.issues) } : { valid: true, value: r.value });
  return (text) => {
    const p = parseJSON(text);
    if (p.rejected) return p.rejected;
    let r;
    try {
      r = schema["~standard"].validate(p.value);
    } catch (e) {
      return gateError(e);
    }
    return typeof r?.then === "function" ? r.then(settle, gateError) : settle(r);
  };
}

/** Gate of a JSON Schema object (TypeBox): JSON.parse, then TypeBox Compile(schema).Check. */
async function jsonSchemaGate(schema) {
  const typebox = await importFrom("typebox/compile");
  if (!typebox) throw new Error("a JSON Schema (TypeBox) schema needs the typebox package (not found from the module nor validator/node)");
  const validator = typebox.Compile(schema);
  return (text) => {
    const p = parseJSON(text);
    if (p.rejected) return p.rejected;
    let ok;
    try {
      ok = validator.Check(p.value);
    } catch (e) {
      return gateError(e);
    }
    if (ok) return { valid: true };
    const issues = new Map(); // "path\0message" -> issue: TypeBox may say the same twice
    const add = (path, message) => issues.set(`${path}\0${message}`, { path, message });
    for (const e of validator.Errors(p.value)) {
      const names = e.keyword === "required" ? e.params?.requiredProperties : e.keyword === "additionalProperties" ? e.params?.additionalProperties : undefined;
      if (Array.isArray(names)) for (const n of names) add(`${e.instancePath}/${escapeToken(n)}`, e.message);
      else add(e.instancePath ?? "", e.message);
    }
    return { valid: false, issues: issues.size ? [...issues.values()] : [{ path: "", message: "arguments do not satisfy the tool schema" }] };
  };
}

/** The JSON Schema shown to the model for a schema without `parameters`. */
async function shownSchema(schema) {
  if (isStandard(schema)) {
    const std = schema["~standard"];
    if (typeof std.jsonSchema?.input === "function") return std.jsonSchema.input({ target: "draft-2020-12" });
    if (std.vendor === "valibot") {
      const conv = await importFrom("@valibot/to-json-schema");
      if (conv) return conv.toJsonSchema(schema, { errorMode: "ignore" });
      throw new Error("a valibot schema needs @valibot/to-json-schema (or give `parameters`)");
    }
    if (std.vendor === "zod") {
      const z = await importFrom("zod");
      if (typeof z?.toJSONSchema === "function") return z.toJSONSchema(schema, { io: "input" });
    }
    throw new Error(`cannot turn a ${std.vendor} schema into JSON Schema: give \`parameters\``);
  }
  return schema;
}

// ---- the Vercel AI SDK

let aiUtils; // @ai-sdk/provider-utils as the module's `ai` uses it
let aiPackage; // the module's `ai`, for the error the model is sent back

async function aiSDK() {
  if (aiUtils) return aiUtils;
  let aiEntry;
  try {
    aiEntry = fromModule.resolve("ai");
  } catch {
    // a tool set built without the `ai` package: provider-utils from the module itself
  }
  const requires = aiEntry ? [createRequire(aiEntry), fromModule] : [fromModule];
  aiUtils = await importFrom("@ai-sdk/provider-utils", ...requires);
  if (!aiUtils?.asSchema || !aiUtils?.safeParseJSON || !aiUtils?.safeValidateTypes) {
    throw new Error("an AI SDK tool set needs the `ai` package (and its @ai-sdk/provider-utils) installed where the module can resolve it");
  }
  aiPackage = aiEntry ? await import(pathToFileURL(aiEntry).href) : undefined;
  return aiUtils;
}

/**
 * The text the model gets back for an invalid call: the message of the SDK's
 * InvalidToolInputError (its tool-error result is getErrorMessage of it).
 */
function aiErrorText(toolName, toolInput, cause) {
  if (typeof aiPackage?.InvalidToolInputError === "function") {
    return new aiPackage.InvalidToolInputError({ toolName, toolInput, cause }).message;
  }
  return `Invalid input for tool ${toolName}: ${errorText(cause)}`;
}

/** Issues found on the cause chain of an AI SDK error (zod issues or Standard Schema issues). */
function aiIssues(error) {
  for (let e = error, depth = 0; e != null && depth < 8; e = e.cause, depth++) {
    if (Array.isArray(e)) return standardIssues(e);
    if (Array.isArray(e.issues)) return standardIssues(e.issues);
  }
  return [{ path: "", message: errorText(error) }];
}

/**
 * Gate and shown schema of an AI SDK tool, as its parseToolCall does it. A rejection's issues are
 * at the paths of the schema's issues; their message is the text the model is sent back.
 */
async function aiTool(name, def) {
  const { asSchema, safeParseJSON, safeValidateTypes } = await aiSDK();
  const schema = asSchema(def.inputSchema);
  const parameters = def.parameters ?? (await schema.jsonSchema);
  const gate = async (text) => {
    let r;
    try {
      r = text.trim() === "" ? await safeValidateTypes({ value: {}, schema }) : await safeParseJSON({ text, schema });
    } catch (e) {
      return gateError(e);
    }
    if (r.success) return { valid: true, value: r.value };
    const message = aiErrorText(name, text, r.error);
    return { valid: false, issues: aiIssues(r.error).map(({ path }) => ({ path, message })) };
  };
  return { parameters, gate };
}

// ---- the tools

/** What node: understands, for a tool it does not. */
const UNDERSTOOD =
  "node: understands {name, schema (a Standard Schema, an effect Schema or a JSON Schema), parameters?}, AI SDK tool(), OpenAI Agents SDK tool(), Anthropic SDK betaZodTool()/betaTool(), OpenAI SDK zodFunction() (runTools), LangChain tool()/StructuredTool, Mastra createTool(), Genkit ai.defineTool(), an MCP SDK McpServer and a LangGraph ToolNode";

async function prepare(name, def) {
  if (isGenkitTool(def)) return genkitTool(def, absolute, (text) => log(`${absolute}: ${text}`));
  if (def === null || typeof def !== "object") throw new Error(`not an object: ${UNDERSTOOD}`);
  if (isMastraTool(def)) return mastraTool(def, absolute, name);
  if (typeof name !== "string" || name === "") throw new Error("a tool has no name");
  if (isAgentsTool(def)) return agentsTool(def, absolute);
  if (isAnthropicTool(def)) return anthropicTool(def, absolute);
  if (isOpenAITool(def)) return openAITool(def, absolute);
  if (isLangChainTool(def)) return langChainTool(def, absolute);
  if (isMcpServer(def)) throw new Error("an McpServer inside a tool list: export the server itself (as `tools`, `server` or the default export)");
  const description = typeof def.description === "string" ? def.description : "";
  if (def.schema === undefined && def.inputSchema !== undefined) return { name, description, ...(await aiTool(name, def)) };
  const schema = mayBeEffectSchema(def.schema) ? ((await effectStandard(def.schema, absolute)) ?? def.schema) : def.schema;
  if (schema === undefined) {
    const has = Object.keys(def).slice(0, 8).join(", ");
    throw new Error(`a tool object node: does not understand (it has ${has || "no keys"}): ${UNDERSTOOD}`);
  }
  if (!isStandard(schema) && !isPlainSchema(schema)) throw new Error(`\`schema\` is neither a Standard Schema nor a JSON Schema object: ${UNDERSTOOD}`);
  // A plain JSON Schema travels as JSON (TypeBox 0.x marks its types with symbols).
  const plain = isPlainSchema(schema) ? JSON.parse(JSON.stringify(schema)) : undefined;
  const parameters = def.parameters ?? (await shownSchema(plain ?? schema));
  const gate = plain ? await jsonSchemaGate(plain) : standardGate(schema);
  return { name, description, parameters: JSON.parse(JSON.stringify(parameters)), gate };
}

const prepared = new Map();
const mcpServer = [mod.tools, mod.server, mod.default, mod.default?.tools, mod.default?.server].find(isMcpServer);
if (mcpServer) {
  try {
    for (const t of await mcpServerTools(mcpServer, absolute)) prepared.set(t.name, t);
  } catch (e) {
    log(`${absolute}: the McpServer: ${errorText(e)}`);
    process.exit(2);
  }
} else {
  const toolNode = [mod.tools, mod.toolNode, mod.default, mod.default?.tools, mod.default?.toolNode].find(isToolNode);
  let entries;
  try {
    entries = toolNode ? toolNodeTools(toolNode, absolute) : exported(mod).map(([name, def, where]) => [name, () => prepare(name, def), where]);
  } catch (e) {
    log(`${absolute}: ${errorText(e)}`);
    process.exit(2);
  }
  for (const [name, prepareTool, where] of entries) {
    try {
      const t = await prepareTool();
      if (prepared.has(t.name)) throw new Error(`another tool is named ${JSON.stringify(t.name)} already`);
      prepared.set(t.name, { ...t, parameters: JSON.parse(JSON.stringify(t.parameters)) });
    } catch (e) {
      log(`${absolute}: tool ${where} (${JSON.stringify(name ?? null)}) left out: ${errorText(e)}`);
    }
  }
}

serve({
  name: `native ${shownName}`,
  version: "",
  raw: true,
  tools: [...prepared.values()].map(({ name, description, parameters }) => ({ name, description, parameters })),
  compile(_parameters, tool) {
    const t = prepared.get(tool?.name);
    if (!t) throw new Error(`the module has no tool ${JSON.stringify(tool?.name)}`);
    return t.gate; // the module's own gate, whatever schema toolproof sends
  },
});
