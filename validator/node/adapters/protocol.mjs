// The toolproof/1 stdio loop shared by the Node adapters (validator/stdio/PROTOCOL.md).
//
// An adapter calls serve({name, version, compile, tools?, raw?}). compile(parameters, tool) builds
// a checker for one tool's JSON Schema, or throws when the library cannot use it (answered
// ok:false with the reason). The checker gets the parsed arguments (always a plain object: the
// JSON parse gate runs first) and returns {valid:true, value?} or {valid:false, issues}, or a
// Promise of either; or {gateError: {message, stack}} when the library threw on the input,
// {notSent: why} for a case the gate cannot be given, {unclear: detail, issues?, errorAnswer?} for
// an answer that is neither a rejection nor a run ("refused" or "threw" when it was an error; all
// three answered as PROTOCOL.md says).
//
// An adapter that serves tools of its own passes `tools`, a list of {name, description,
// parameters}: its hello says "tools": true and {"op":"tools"} is answered with the list. With
// raw: true the checker gets the raw argument text instead (it runs its own JSON gate); only
// bytes that are not UTF-8 are rejected before it.

import { readFileSync } from "node:fs";
import { argumentText, parseArguments } from "./gate.mjs";

/** Version of an installed package, read from its package.json next to these adapters. */
export function libraryVersion(pkg) {
  const url = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")).version;
}

const log = (text) => process.stderr.write(`toolproof adapter: ${text}\n`);
const errorText = (e) => (e instanceof Error ? e.message : String(e));

export function serve({ name, version, compile, tools: served, raw = false }) {
  const tools = new Map(); // tool name -> checker

  // The checker of each tool definition compiled so far, by the definition's JSON text: a run
  // registers its tools again (each harness run, each shard), and the schema is compiled once.
  const compiled = new Map();
  const MAX_COMPILED = 1000;

  function register(tool, key) {
    const toolName = tool?.name;
    if (typeof toolName !== "string") return { op: "tool", name: toolName ?? null, ok: false, error: "tool has no name" };
    tools.delete(toolName); // replaced, even when the new schema does not compile
    try {
      let check = compiled.get(key);
      if (check === undefined) {
        check = compile(tool.parameters ?? {}, tool);
        if (compiled.size >= MAX_COMPILED) compiled.clear();
        compiled.set(key, check);
      }
      tools.set(toolName, check);
      return { op: "tool", name: toolName, ok: true };
    } catch (e) {
      return { op: "tool", name: toolName, ok: false, error: `schema does not compile: ${errorText(e)}` };
    }
  }

  function validate(m) {
    const id = JSON.stringify(m.id ?? null);
    try {
      const check = tools.get(m.tool);
      if (check === undefined) throw new Error(`unknown tool ${JSON.stringify(m.tool)}`);
      const { text, rejected } = argumentText(m);
      let r;
      if (raw) {
        r = rejected ?? check(text);
      } else {
        const parsed = rejected ? { rejected } : parseArguments(text);
        r = parsed.rejected ?? check(parsed.data);
      }
      if (typeof r?.then === "function") {
        // An asynchronous gate (a Standard Schema may return a Promise): answered when it settles.
        r.then(
          (v) => result(id, v, text),
          (e) => `{"op":"result","id":${id},"error":${JSON.stringify(`internal adapter failure: ${errorText(e)}`)}}`,
        ).then((answer) => {
          answers.push(answer);
          scheduleFlush();
        });
        return undefined;
      }
      return result(id, r, text);
    } catch (e) {
      return `{"op":"result","id":${id},"error":${JSON.stringify(`internal adapter failure: ${errorText(e)}`)}}`;
    }
  }

  /** The result line of one verdict; text is the argument text the gate was given. */
  function result(id, r, text) {
    try {
      // A gate that threw on the input (the framework's exception, not a verdict), a case it
      // could not be given, an answer that is neither a rejection nor a run.
      if (r?.gateError) return `{"op":"result","id":${id},"gate_error":${JSON.stringify(r.gateError)}}`;
      if (typeof r?.notSent === "string") return `{"op":"result","id":${id},"not_sent":${JSON.stringify(r.notSent)}}`;
      if (typeof r?.unclear === "string") {
        const issues = r.issues ? `,"issues":${JSON.stringify(r.issues)}` : "";
        const answer = r.errorAnswer ? `,"error_answer":${JSON.stringify(r.errorAnswer)}` : "";
        return `{"op":"result","id":${id},"unclear":${JSON.stringify(r.unclear)}${issues}${answer}}`;
      }
      if (r?.valid !== true && r?.valid !== false) throw new Error("the gate gave no verdict");
      // A value equal to the arguments as JSON.parse reads them is left out (PROTOCOL.md: the
      // input passed on unchanged): neither written here nor read by toolproof.
      if (r.valid === true && (r.value === undefined || unchanged(r.value, text))) return `{"op":"result","id":${id},"valid":true}`;
      if (r.valid === true) {
        // A value too deep for JSON.stringify (thousands of nested arrays) is still a verdict:
        // send it without the value rather than fail the request.
        let value;
        try {
          value = JSON.stringify(r.value);
        } catch {
          return `{"op":"result","id":${id},"valid":true}`;
        }
        return `{"op":"result","id":${id},"valid":true,"value":${value}}`;
      }
      return `{"op":"result","id":${id},"valid":false,"issues":${JSON.stringify(r.issues)}}`;
    } catch (e) {
      return `{"op":"result","id":${id},"error":${JSON.stringify(`internal adapter failure: ${errorText(e)}`)}}`;
    }
  }

  /** Whether value is the argument text as JSON.parse reads it (parsed again: a gate may have
   * changed the object it was given in place). */
  function unchanged(value, text) {
    if (typeof text !== "string") return false;
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      return false;
    }
    return sameJSON(value, parsed, 0);
  }

  function handle(line) {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return log("ignoring a line that is not JSON");
    }
    switch (m?.op) {
      case "validate":
        return validate(m);
      case "hello":
        return JSON.stringify({ op: "hello", protocol: "toolproof/1", name, version, ...(served ? { tools: true } : {}) });
      case "tools":
        return JSON.stringify(served ? { op: "tools", tools: served } : { op: "tools", error: "this adapter serves no tools" });
      case "tool":
        return JSON.stringify(register(m.tool, JSON.stringify(m.tool ?? null)));
      default:
        log(`ignoring a message with op ${JSON.stringify(m?.op)}`);
    }
  }

  // Answers are collected and written together, one write for each stdin chunk (a batch of
  // requests), and every FLUSH_EVERY answers within a long chunk so that toolproof can read
  // them while we go on.
  const FLUSH_EVERY = 256;
  let answers = [];
  let flushScheduled = false;
  const scheduleFlush = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      flush();
    });
  };
  let waitingForDrain = false;
  let partial = []; // pieces of a line that has not ended yet
  const onLine = (line) => {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line === "") return;
    try {
      const answer = handle(line);
      if (answer !== undefined && answers.push(answer) >= FLUSH_EVERY) flush();
    } catch (e) {
      log(`failed on a message: ${errorText(e)}`); // never reached by design; the process lives on
    }
  };
  const flush = () => {
    if (answers.length === 0) return;
    const text = answers.join("\n") + "\n";
    answers = [];
    if (!process.stdout.write(text) && !waitingForDrain) {
      waitingForDrain = true; // backpressure: read no more until toolproof has read our answers
      process.stdin.pause();
      process.stdout.once("drain", () => {
        waitingForDrain = false;
        process.stdin.resume();
      });
    }
  };

  process.stdout.on("error", (e) => {
    log(`stdout: ${errorText(e)}`); // toolproof went away: nobody left to answer
    process.exit(0);
  });
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", start)) {
      let line = chunk.slice(start, nl);
      if (partial.length > 0) {
        partial.push(line);
        line = partial.join("");
        partial = [];
      }
      onLine(line);
      start = nl + 1;
    }
    if (start < chunk.length) partial.push(chunk.slice(start));
    flush();
  });
  process.stdin.on("end", () => {
    onLine(partial.join(""));
    partial = [];
    flush();
    process.exitCode = 0; // the loop ends once stdout has been written out
  });
}

/**
 * Whether a (a gate's output) and b (the arguments as JSON.parse reads them) are the same JSON
 * value: the same numbers, strings, booleans and nulls, arrays of the same items, plain objects
 * of the same keys in any order. Anything else (a Date, a class instance, an undefined member,
 * nesting deeper than 200) counts as different, so that its value is sent.
 */
export function sameJSON(a, b, depth) {
  if (a === b) return a !== undefined && (a === null || typeof a !== "object");
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || depth > 200) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJSON(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const pa = Object.getPrototypeOf(a);
  if (pa !== Object.prototype && pa !== null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !sameJSON(a[k], b[k], depth + 1)) return false;
  return true;
}
