// An MCP TypeScript SDK server (`McpServer` of @modelcontextprotocol/sdk, tools added with
// registerTool), served in process: connected to one end of the SDK's InMemoryTransport pair,
// spoken to in JSON-RPC from the other (initialize, tools/list, tools/call), with no subprocess
// and no client library in between. The verdict rules are mcp:'s (validator/mcp/classify.go):
// a JSON-RPC -32602 or -32600 error, a -32603 whose zod issues are at params.arguments, or an
// isError result in the SDK's input-validation wording ("Input validation error", "Invalid
// arguments for tool") is a rejection; a plain result means the handler ran (accepted); anything
// else is unclear (an error answer says whether the tool refused or threw); text that is not JSON cannot be sent (not sent). Calls that are accepted RUN
// the tool's handler, as over any transport. The value the SDK passed on is what the handler was
// given (recorded by wrapping the registered handler). The schema shown to the model is the
// tool's inputSchema in tools/list.

import { dirname } from "node:path";
import { importVia } from "./native-common.mjs";

/** An McpServer: registerTool and connect, over a low-level Server. */
export const isMcpServer = (x) =>
  x !== null && typeof x === "object" && typeof x.registerTool === "function" && typeof x.connect === "function" && typeof x.server?.setRequestHandler === "function";

const SDK_WORDING = /Input validation error|Invalid arguments for tool/;
const ZOD_AT_ARGUMENTS = /"path":\s*\[\s*"params",\s*"arguments"/;

/** Connects to server in process; returns its tools as {name, description, parameters, gate}. */
export async function mcpServerTools(server, modulePath) {
  const why = "an McpServer";
  const dir = dirname(modulePath);
  const { InMemoryTransport } = await importVia("@modelcontextprotocol/sdk/inMemory.js", "@modelcontextprotocol/sdk", dir, why);
  const types = await importVia("@modelcontextprotocol/sdk/types.js", "@modelcontextprotocol/sdk", dir, why);
  const rpc = await connect(server, InMemoryTransport, types.LATEST_PROTOCOL_VERSION);
  const listed = [];
  let cursor;
  do {
    const r = await rpc.call("tools/list", cursor ? { cursor } : {});
    if (r.error) throw new Error(`tools/list failed: ${r.error.message}`);
    listed.push(...(r.result?.tools ?? []));
    cursor = r.result?.nextCursor;
  } while (cursor);
  const passed = recordPassedOn(server);
  return listed.map((t) => ({
    name: t.name,
    description: t.description ?? "",
    parameters: t.inputSchema ?? { type: "object" },
    gate: async (text) => {
      let args;
      try {
        args = JSON.parse(text);
      } catch {
        return { notSent: "the argument text is not JSON; MCP sends arguments as a JSON value inside a JSON-RPC message" };
      }
      const id = rpc.nextId();
      const r = await rpc.call("tools/call", { name: t.name, arguments: args }, id);
      const value = passed.take(id);
      return classify(r, value);
    },
  }));
}

/** A JSON-RPC session over an InMemoryTransport pair, initialized. */
async function connect(server, InMemoryTransport, protocolVersion) {
  const [client, end] = InMemoryTransport.createLinkedPair();
  const waiting = new Map();
  let next = 0;
  client.onmessage = (m) => {
    const w = waiting.get(m?.id);
    if (w) {
      waiting.delete(m.id);
      w(m);
    }
  };
  await server.connect(end);
  await client.start();
  const rpc = {
    nextId: () => ++next,
    call(method, params, id = rpc.nextId()) {
      return new Promise((resolve, reject) => {
        waiting.set(id, resolve);
        client.send({ jsonrpc: "2.0", id, method, params }).catch(reject);
      });
    },
  };
  const init = await rpc.call("initialize", { protocolVersion, capabilities: {}, clientInfo: { name: "toolproof", version: "" } });
  if (init.error) throw new Error(`initialize failed: ${init.error.message}`);
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return rpc;
}

/**
 * Wraps each registered tool's handler to record the arguments it is given, by JSON-RPC request
 * id; take(id) returns them once (undefined when the handler did not run or cannot be seen).
 */
function recordPassedOn(server) {
  const seen = new Map();
  for (const t of Object.values(server._registeredTools ?? {})) {
    const h = t?.handler;
    if (typeof h !== "function") continue;
    t.handler = function (args, extra) {
      if (extra?.requestId !== undefined && args !== null && typeof args === "object") {
        try {
          seen.set(extra.requestId, structuredClone(args));
        } catch {
          // a value that cannot be cloned (a function a transform made): not recorded
        }
      }
      return h.apply(this, arguments);
    };
  }
  return {
    take(id) {
      const v = seen.get(id);
      seen.delete(id);
      return v;
    },
  };
}

// An isError text that reads as an exception rather than a refusal, as mcp: reads it
// (exceptionWording in validator/mcp/answers.go, the same alternatives).
const EXCEPTION_WORDING = new RegExp(
  String.raw`Cannot read propert(?:y|ies) of (?:undefined|null)|\bis not (?:a function|iterable|a constructor|defined)\b|` +
    String.raw`Maximum call stack size exceeded|Traceback \(most recent call last\)|\b[A-Z][A-Za-z]*(?:Error|Exception): |` +
    String.raw`\bpanic: |\bpanic recovered\b|\bruntime error: |nil pointer dereference`,
);
const INTERNAL_WORDING = /\binternal (?:server )?error\b|\bunhandled (?:exception|error)\b/i;

/**
 * The verdict of a tools/call response, by mcp:'s rules: an error answer that is neither a
 * rejection nor a run is unclear, and says whether it was refused or threw.
 */
export function classify(r, value) {
  if (r.error) {
    const text = r.error.data !== undefined ? `${r.error.message} ${JSON.stringify(r.error.data)}` : r.error.message;
    const c = r.error.code;
    if (c === -32602 || c === -32600 || (c === -32603 && ZOD_AT_ARGUMENTS.test(text))) return { valid: false, issues: [{ path: "", message: text }] };
    const errorAnswer = c === -32603 ? "threw" : "refused";
    return { unclear: `JSON-RPC error ${c}: ${String(text).slice(0, 300)}`, issues: [{ path: "", message: text }], errorAnswer };
  }
  const res = r.result ?? {};
  if (!res.isError) return value === undefined ? { valid: true } : { valid: true, value };
  const text = (res.content ?? []).filter((b) => b?.type === "text" || b?.text).map((b) => b.text).join("\n");
  if (SDK_WORDING.test(text)) return { valid: false, issues: issuesFrom(text) };
  const errorAnswer = EXCEPTION_WORDING.test(text) || INTERNAL_WORDING.test(text) ? "threw" : "refused";
  return { unclear: `isError: ${text.slice(0, 300)}`, issues: [{ path: "", message: text }], errorAnswer };
}

/**
 * Issues of the SDK's input-validation message ("... Invalid arguments for tool NAME: MESSAGE at
 * a.b[0]", one line per zod issue), as mcp: reads it; anything else is one issue at the root.
 */
function issuesFrom(text) {
  const m = /Invalid arguments for tool [^:]*: ([\s\S]*)$/.exec(text);
  if (!m) return [{ path: "", message: text }];
  const out = [];
  for (const line of m[1].split("\n")) {
    const at = line.lastIndexOf(" at ");
    const path = at < 0 ? "" : dotPointer(line.slice(at + 4));
    if (path === undefined) return [{ path: "", message: text }];
    out.push({ path, message: at < 0 ? line : line.slice(0, at) });
  }
  return out.length > 0 ? out : [{ path: "", message: text }];
}

/** JSON Pointer of the SDK's dot path (a.b[0].c); undefined when it is not one. */
function dotPointer(p) {
  if (p === "" || p === "object root") return "";
  const segs = [];
  for (const part of p.split(".")) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return undefined;
    if (m[1] !== "") segs.push(m[1]);
    for (const n of m[2].matchAll(/\[(\d+)\]/g)) segs.push(n[1]);
  }
  return segs.map((s) => "/" + s.replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}
