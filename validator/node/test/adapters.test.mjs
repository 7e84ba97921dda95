// Self-test of the Node adapters: each one is spawned as a child process and spoken to in
// toolproof/1. Run with `npm test` in validator/node.

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Adapter } from "./client.mjs";

const installed = (pkg) => JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), "utf8")).version;

const READ = {
  type: "object",
  properties: { path: { type: "string" }, limit: { type: "integer", minimum: 1 } },
  required: ["path"],
  additionalProperties: false,
};

const CANARY = "SECRET-CANARY-123";
const CANARY_TOOL = {
  type: "object",
  properties: {
    n: { type: "integer" },
    p: { type: "string", pattern: "^[a-z]+$" },
    e: { enum: ["red", "green"] },
    f: { type: "string", format: "email" },
    k: { type: "string", maxLength: 3 },
    c: { const: "fixed" },
    o: { type: "object", properties: { deep: { type: "boolean" } } },
  },
  additionalProperties: false,
};

// What each adapter is expected to do where they differ. `family` selects the column of QUIRKS.
const ADAPTERS = {
  ajv: { library: "ajv", family: "ajv", value: false, coerces: false, strips: false },
  "ajv-coerce": { library: "ajv", family: "ajv", value: true, coerces: true, strips: false },
  "ajv-strip": { library: "ajv", family: "ajv", value: true, coerces: false, strips: true },
  typebox: { library: "typebox", family: "typebox", value: false, coerces: false, strips: false },
  zod: { library: "zod", family: "zod", value: true, coerces: false, strips: false },
};

// Library behaviour recorded as it is (what toolproof is there to find), one schema a row of
// quirks.json: what it shows, the schema, the arguments, and per adapter family (ajv, typebox,
// zod) "refused" (tool ok:false), "valid", "invalid", or the exact JSON text of the value passed
// on. A column named after an adapter (ajv-strip) overrides its family's.
const QUIRKS = JSON.parse(readFileSync(new URL("quirks.json", import.meta.url), "utf8"));

const paths = (r) => (r.issues ?? []).map((i) => i.path);

function assertRejectedAt(r, path) {
  assert.equal(r.valid, false, JSON.stringify(r));
  assert.ok(paths(r).includes(path), `expected an issue at ${JSON.stringify(path)}: ${JSON.stringify(r)}`);
  assert.equal(r.value, undefined);
  for (const i of r.issues) assert.equal(typeof i.message, "string");
}

// A result without a value passes the input on unchanged (PROTOCOL.md): the value is then the
// input text as JSON.parse reads it.
function assertAccepted(r, value, input) {
  assert.equal(r.valid, true, JSON.stringify(r));
  if (value !== undefined) assert.deepEqual(r.value ?? (input === undefined ? undefined : JSON.parse(input)), value);
}

for (const [name, expect] of Object.entries(ADAPTERS)) {
  describe(name, () => {
    let a;
    before(async () => {
      a = new Adapter(name);
      const tool = await a.tool("read", READ);
      assert.deepEqual(tool, { op: "tool", name: "read", ok: true });
    });
    after(() => a.child.kill());

    it("answers hello with its name and the installed library version", async () => {
      const hello = await a.hello();
      assert.deepEqual(hello, { op: "hello", protocol: "toolproof/1", name, version: installed(expect.library) });
    });

    it("accepts a valid call", async () => {
      const r = await a.validate("read", '{"path":"README.md","limit":20}');
      assertAccepted(r, expect.value ? { path: "README.md", limit: 20 } : undefined, '{"path":"README.md","limit":20}');
      assert.equal(r.value, undefined, "a value equal to the input is left out");
    });

    it(expect.coerces ? "coerces a numeric string" : "rejects a numeric string at /limit", async () => {
      const r = await a.validate("read", '{"path":"README.md","limit":"20"}');
      if (expect.coerces) assertAccepted(r, { path: "README.md", limit: 20 });
      else assertRejectedAt(r, "/limit");
    });

    it("reports a missing required property at /path", async () => {
      assertRejectedAt(await a.validate("read", '{"limit":1}'), "/path");
    });

    it(expect.strips ? "strips an additional property" : "rejects an additional property at /extra", async () => {
      const r = await a.validate("read", '{"path":"a","extra":1}');
      if (expect.strips) assertAccepted(r, { path: "a" });
      else assertRejectedAt(r, "/extra");
    });

    it("rejects non-objects and non-JSON at the root", async () => {
      for (const text of ["null", "[]", '"[]"', '{"path":', "", "42", "true", '{"path":"a"} x', "\uFEFF{}", "{'path':'a'}"]) {
        assertRejectedAt(await a.validate("read", text), "");
      }
    });

    it("rejects invalid UTF-8 sent as arguments_base64 and reads valid UTF-8", async () => {
      for (const bytes of [[0xff], [0x7b, 0x80, 0x7d], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
        assertRejectedAt(await a.validate("read", { base64: Buffer.from(bytes).toString("base64") }), "");
      }
      const ok = await a.validate("read", { base64: Buffer.from('{"path":"é"}').toString("base64") });
      assertAccepted(ok, expect.value ? { path: "é" } : undefined, '{"path":"é"}');
    });

    it("never repeats argument values in messages", async () => {
      assert.equal((await a.tool("canary", CANARY_TOOL)).ok, true);
      const args = { n: CANARY, p: CANARY, e: CANARY, f: CANARY, k: CANARY, c: CANARY, o: { deep: CANARY }, [CANARY]: CANARY };
      const answers = [
        await a.validate("canary", JSON.stringify(args)),
        await a.validate("read", JSON.stringify({ path: 7, limit: CANARY, [CANARY]: 1 })),
        await a.validate("read", `{"path": ${CANARY}}`),
        await a.validate("read", `["${CANARY}"]`),
      ];
      assertRejectedAt(answers[0], "/n");
      assertRejectedAt(answers[0], "/p");
      // TypeBox stops after 8 errors (its default Settings maxErrors), before reaching /o/deep.
      if (expect.family === "typebox") assert.ok(!paths(answers[0]).includes("/o/deep"));
      else assertRejectedAt(answers[0], "/o/deep");
      for (const r of answers) {
        assert.equal(r.valid, false);
        for (const i of r.issues) assert.ok(!i.message.includes("CANARY"), `message repeats a value: ${JSON.stringify(i)}`);
      }
    });

    it("answers 200 pipelined requests", async () => {
      const texts = Array.from({ length: 200 }, (_, i) => (i % 2 ? `{"path":"f${i}"}` : `{"path":{"i":${i}}}`));
      const results = await Promise.all(texts.map((t) => a.validate("read", t)));
      results.forEach((r, i) => assert.equal(r.valid, i % 2 === 1, JSON.stringify(r)));
    });

    it("answers a schema it cannot use with ok:false and lives on", async () => {
      const refusals = {
        "invalid regex": { type: "object", properties: { p: { type: "string", pattern: "(unclosed" } } },
        "unknown keyword": { type: "object", properties: { p: { type: "string" } }, frobnicate: true },
        "remote $ref": { type: "object", properties: { p: { $ref: "https://example.com/schema.json" } } },
      };
      // Ajv refuses all three; TypeBox ignores unknown keywords and compiles a remote $ref to a
      // schema that rejects every value; Zod ignores unknown keywords.
      const refuses = {
        ajv: { "invalid regex": true, "unknown keyword": true, "remote $ref": true },
        typebox: { "invalid regex": true, "unknown keyword": false, "remote $ref": false },
        zod: { "invalid regex": true, "unknown keyword": false, "remote $ref": true },
      }[expect.family];
      for (const [what, schema] of Object.entries(refusals)) {
        const t = await a.tool(what, schema);
        assert.equal(t.name, what);
        assert.equal(t.ok, !refuses[what], `${what}: ${JSON.stringify(t)}`);
        if (!t.ok) assert.match(t.error, /\S/);
      }
      // An RE2-incompatible pattern (lookbehind) is a valid ECMAScript regex: every library takes it.
      const re2 = await a.tool("lookbehind", { type: "object", properties: { p: { type: "string", pattern: "(?<=a)b" } } });
      assert.equal(re2.ok, true, JSON.stringify(re2));
      assertAccepted(await a.validate("lookbehind", '{"p":"ab"}'));
      assertRejectedAt(await a.validate("lookbehind", '{"p":"cb"}'), "/p");
      // A refused tool is not registered; the process still answers.
      assert.match((await a.validate("invalid regex", "{}")).error, /unknown tool/);
      assertAccepted(await a.validate("read", '{"path":"a"}'));
    });

    it("answers an exception (stack overflow) without dying", async () => {
      const schema = {
        type: "object",
        properties: { a: { $ref: "#/$defs/list" } },
        $defs: { list: { type: "array", items: { $ref: "#/$defs/list" } } },
      };
      assert.equal((await a.tool("deep", schema)).ok, true);
      const r = await a.validate("deep", `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`);
      assert.ok(typeof r.error === "string" || typeof r.valid === "boolean", JSON.stringify(r).slice(0, 300));
      assertAccepted(await a.validate("read", '{"path":"a"}'));
    });

    it("answers a 10 MB argument line", async () => {
      const big = "x".repeat(10 * 1024 * 1024);
      const r = await a.validate("read", JSON.stringify({ path: big }));
      assertAccepted(r);
      assert.equal(r.value, undefined, "the unchanged 10 MB value is not sent back");
      assertRejectedAt(await a.validate("read", JSON.stringify({ path: 1, limit: big })), "/limit");
    });

    it("records the library's behaviour on known differences", async () => {
      for (const [i, q] of QUIRKS.entries()) {
        const want = q[name] ?? q[expect.family];
        const label = `${q.what}: ${q.args}`;
        const t = await a.tool(`quirk${i}`, q.schema);
        if (want === "refused") {
          assert.equal(t.ok, false, `${label} ${JSON.stringify(t)}`);
          continue;
        }
        assert.equal(t.ok, true, `${label} ${JSON.stringify(t)}`);
        const r = await a.validate(`quirk${i}`, q.args);
        if (want === "invalid") assert.equal(r.valid, false, `${label} ${JSON.stringify(r)}`);
        else assert.equal(r.valid, true, `${label} ${JSON.stringify(r)}`);
        if (want !== "invalid" && want !== "valid") assert.equal(JSON.stringify(r.value ?? JSON.parse(q.args)), want, label);
      }
    });

    it("answers every id exactly once and exits 0 when stdin closes", async () => {
      const status = await a.close();
      assert.equal(status, 0, a.stderr);
      assert.deepEqual(a.problems, []);
      assert.equal(a.waiting.size, 0);
      for (let id = 1; id < a.nextId; id++) assert.equal(a.answers.get(id), 1, `id ${id}`);
      assert.equal(a.answers.size, a.nextId - 1);
    });
  });
}

// The cause of the patternProperties quirk above is Zod itself, not its JSON Schema converter:
// z.record skips an own "__proto__" key (JSON.parse makes one) without checking its name or its
// value, and fromJSONSchema's additionalProperties:false check then reads the record's output,
// where the key is gone. When a Zod release fixes this, the test fails: update its quirks.json row
// and the README.
describe("zod library: z.record and an own __proto__ key", () => {
  it("skips the key (spec: JSON Schema 2020-12 Core 10.3.2.3 covers every name)", async () => {
    const z = await import("zod");
    const proto = JSON.parse('{"__proto__":{"x":1}}');
    assert.ok(Object.hasOwn(proto, "__proto__"), "JSON.parse makes __proto__ an own key");
    const rec = z.record(z.string().regex(/^cf_/), z.string());
    assert.equal(rec.safeParse({ zz: "a" }).success, false, "the probe is wrong: an unmatched key passes");
    const r = rec.safeParse(proto);
    assert.equal(r.success, true, "z.record now rejects an own __proto__ key: Zod's bug is fixed");
    assert.deepEqual(Object.keys(r.data), []);
    // The value is not checked either.
    assert.equal(z.record(z.string(), z.number()).safeParse(JSON.parse('{"__proto__":"x"}')).success, true);
    // A strict object does see it.
    assert.equal(z.strictObject({}).safeParse(proto).success, false);
  });
});

// sameJSON decides when an adapter leaves a value out as unchanged: only a value JSON.stringify
// would write as the input may be left out.
describe("protocol: sameJSON", () => {
  it("tells an unchanged value from a changed one", async () => {
    const { sameJSON } = await import("../adapters/protocol.mjs");
    const same = (a, text) => sameJSON(a, JSON.parse(text), 0);
    assert.equal(same({ b: [1, { c: null }], a: "x" }, '{"a":"x","b":[1,{"c":null}]}'), true, "keys in any order");
    assert.equal(same(1, "1.0"), true, "numbers as JSON.parse reads them");
    assert.equal(same({ a: 1 }, '{"a":"1"}'), false, "a coerced string");
    assert.equal(same({ a: 1 }, '{"a":1,"b":2}'), false, "a stripped key");
    assert.equal(same({ a: 1, b: undefined }, '{"a":1}'), false, "an undefined member");
    assert.equal(same({ d: new Date(0) }, '{"d":"1970-01-01T00:00:00.000Z"}'), false, "a Date");
    assert.equal(same([1, 2], '{"0":1,"1":2}'), false, "an array for an object");
    assert.equal(same({}, "[]"), false, "an object for an array");
    assert.equal(same(undefined, "null"), false, "undefined");
    const deep = (n) => "[".repeat(n) + "]".repeat(n);
    assert.equal(same(JSON.parse(deep(150)), deep(150)), true, "nested arrays");
    assert.equal(same(JSON.parse(deep(300)), deep(300)), false, "nesting past 200 is sent");
  });
});
