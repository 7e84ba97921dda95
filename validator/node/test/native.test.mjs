// The native tool module adapter (adapters/native.mjs) on fixture modules that need no library:
// hello with "tools": true, the tools answer, and verdicts as an agent's JSON.parse + schema give.

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const adapter = fileURLToPath(new URL("../adapters/native.mjs", import.meta.url));
const fixture = (name) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));

/** Runs the adapter on a module, sends lines, returns the answers once stdout ends. */
function exchange(module, messages) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [adapter, module], { cwd: "/", stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (s) => (out += s));
    child.stderr.setEncoding("utf8").on("data", (s) => (err += s));
    child.on("close", (code) => resolve({ code, stderr: err, answers: out.split("\n").filter(Boolean).map((l) => JSON.parse(l)) }));
    child.stdin.end(messages.map((m) => JSON.stringify(m) + "\n").join(""));
  });
}

const hello = { op: "hello", protocol: "toolproof/1" };
const validate = (id, tool, args) => ({ op: "validate", id, tool, arguments: args });
const results = (answers) => new Map(answers.filter((a) => a.op === "result").map((a) => [a.id, a]));

describe("native tool modules", () => {
  it("serves the module's tools and gates them with their Standard Schemas", async () => {
    const { code, answers } = await exchange(fixture("standard.mjs"), [
      hello,
      { op: "tools" },
      { op: "tool", tool: { name: "coerce", parameters: {} } },
      { op: "tool", tool: { name: "deep", parameters: {} } },
      { op: "tool", tool: { name: "nope", parameters: {} } },
      validate(1, "coerce", '{"count":"20"}'),
      validate(2, "coerce", '{"count":"x"}'),
      validate(3, "coerce", "{count: 1}"),
      validate(4, "coerce", "[1]"),
      validate(6, "coerce", "null"),
      validate(5, "deep", '{"items":[0,{"a/b":"no"}]}'),
    ]);
    assert.equal(code, 0);
    assert.equal(answers[0].tools, true, "hello says the adapter serves tools");
    assert.deepEqual(answers[1].tools.map((t) => t.name), ["coerce", "deep"]);
    assert.deepEqual(answers[1].tools[0].parameters.required, ["count"], "parameters as the module gives them");
    assert.deepEqual(answers[1].tools[1].parameters, { type: "object", properties: { items: { type: "array" } } }, "else ~standard.jsonSchema.input");
    assert.deepEqual(answers.slice(2, 5).map((a) => a.ok), [true, true, false]);
    const r = results(answers);
    assert.deepEqual(r.get(1), { op: "result", id: 1, valid: true, value: { count: 20 } }, "the value the schema passes on");
    assert.deepEqual(r.get(2).issues, [{ path: "/count", message: "count is not an integer" }]);
    assert.equal(r.get(3).valid, false);
    assert.equal(r.get(3).issues[0].path, "");
    assert.deepEqual(r.get(4).issues, [{ path: "", message: "not an object" }], "no root check of its own: the schema sees the array");
    assert.deepEqual(r.get(6).issues, [{ path: "", message: "not an object" }], "and null");
    assert.deepEqual(r.get(5).issues, [{ path: "/items/1/a~1b", message: "wrong" }], "path segments to a JSON Pointer");
  });

  it("loads CommonJS, tool maps and asynchronous validation", async () => {
    const { code, answers } = await exchange(fixture("async.cjs"), [
      hello,
      { op: "tools" },
      { op: "tool", tool: { name: "slow", parameters: {} } },
      validate(1, "slow", '{"ok":true}'),
      validate(2, "slow", '{"ok":false}'),
    ]);
    assert.equal(code, 0);
    assert.deepEqual(answers[1].tools, [{ name: "slow", description: "answers asynchronously", parameters: { type: "object", properties: { ok: { type: "boolean" } } } }]);
    const r = results(answers);
    assert.deepEqual(r.get(1), { op: "result", id: 1, valid: true }, "a value equal to the input is left out (passed on unchanged)");
    assert.deepEqual(r.get(2).issues, [{ path: "/ok", message: "ok must be true" }]);
  });

  it("gates a JSON Schema object with TypeBox, a missing property at /name", async () => {
    const { answers } = await exchange(fixture("jsonschema.mjs"), [
      hello,
      { op: "tools" },
      { op: "tool", tool: { name: "person", parameters: {} } },
      validate(1, "person", '{"name":"a","age":3}'),
      validate(2, "person", '{"age":"3","x":1}'),
    ]);
    assert.equal(answers[1].tools[0].parameters.additionalProperties, false, "the schema itself is shown");
    const r = results(answers);
    assert.deepEqual(r.get(1), { op: "result", id: 1, valid: true });
    assert.deepEqual([...new Set(r.get(2).issues.map((i) => i.path))].sort(), ["/age", "/name", "/x"]);
  });

  it("takes a Standard Schema that is a function (arktype's types)", async () => {
    const { code, answers } = await exchange(fixture("function-standard.mjs"), [
      hello,
      { op: "tools" },
      { op: "tool", tool: { name: "count", parameters: {} } },
      validate(1, "count", '{"n":1}'),
      validate(2, "count", '{"n":"1"}'),
    ]);
    assert.equal(code, 0);
    assert.deepEqual(answers[1].tools[0].parameters.required, ["n"], "~standard.jsonSchema.input is shown");
    const r = results(answers);
    assert.equal(r.get(1).valid, true);
    assert.deepEqual(r.get(2).issues, [{ path: "/n", message: "n must be a number" }]);
  });

  it("runs a .ts module with Node's type stripping, or says in one line what to do", async () => {
    const [major, minor] = process.versions.node.split(".").map(Number);
    const { code, stderr, answers } = await exchange(fixture("typed.ts"), [hello, { op: "tools" }]);
    if (major > 22 || (major === 22 && minor >= 6)) {
      assert.equal(code, 0, stderr);
      assert.deepEqual(answers[1].tools.map((t) => t.name), ["read"]);
      assert.doesNotMatch(stderr, /ERR_UNKNOWN_FILE_EXTENSION|ExperimentalWarning/);
    } else {
      assert.equal(code, 2);
      assert.equal(stderr.trim().split("\n").length, 1, `one line: ${stderr}`);
      assert.match(stderr, /is TypeScript, which Node\.js [0-9.]+ cannot run: use Node\.js 22\.6 or later/);
    }
  });

  it("refuses a module without tools, saying why", async () => {
    const { code, stderr } = await exchange(fixture("empty.mjs"), [hello]);
    assert.equal(code, 2);
    assert.match(stderr, /exports no `tools`/);
  });
});

describe("an in-process McpServer's answers (native-mcp.mjs), by mcp:'s rules", () => {
  it("says whether an error answer refused or threw", async () => {
    const { classify } = await import("../adapters/native-mcp.mjs");
    const isError = (text) => ({ result: { isError: true, content: [{ type: "text", text }] } });
    assert.deepEqual(classify({ result: { content: [] } }), { valid: true });
    assert.equal(classify(isError("Input validation error: expected number")).valid, false);
    assert.equal(classify({ error: { code: -32602, message: "bad params" } }).valid, false);
    for (const [answer, want] of [
      [{ error: { code: -32603, message: "boom" } }, "threw"],
      [{ error: { code: -32000, message: "rate limited" } }, "refused"],
      [isError("TypeError: Cannot read properties of undefined (reading 'x')"), "threw"],
      [isError("Unhandled exception in handler"), "threw"],
      [isError("Entity with name x not found"), "refused"],
    ]) {
      const v = classify(answer);
      assert.equal(typeof v.unclear, "string", JSON.stringify(answer));
      assert.equal(v.errorAnswer, want, JSON.stringify(answer));
    }
  });
});
