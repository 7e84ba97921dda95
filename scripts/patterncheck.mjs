// Checks the strings `go run ./cmd/measure patterns -dump FILE` wrote against Ajv (the ajv
// adapter's options) and TypeBox's pattern compilation (new RegExp(p, "u")). Every string was
// generated as valid and confirmed by the oracle (RE2); each one a library rejects is a place
// where the dialects disagree. Run from the checkout: node scripts/patterncheck.mjs FILE
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
const require = createRequire(new URL("../validator/node/package.json", import.meta.url));
const Ajv2020 = require("ajv/dist/2020.js").default;
const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
const lines = readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean);
const cache = new Map();
let total = 0, bad = 0, uncompiled = 0;
const byPattern = new Map();
for (const line of lines) {
  const r = JSON.parse(line);
  let c = cache.get(r.pattern);
  if (c === undefined) {
    try {
      c = ajv.compile({ type: "string", pattern: r.pattern });
    } catch (e) {
      c = null;
    }
    cache.set(r.pattern, c);
  }
  total++;
  if (c === null) { uncompiled++; continue; }
  if (!c(r.value)) {
    bad++;
    const k = `${r.where} ${r.pattern}`;
    const e = byPattern.get(k) ?? { n: 0, example: r.value, source: r.source };
    e.n++;
    if ([...r.value].length < [...e.example].length) e.example = r.value;
    byPattern.set(k, e);
  }
}
for (const [k, e] of [...byPattern].sort((a, b) => b[1].n - a[1].n)) {
  console.log(`DISAGREE ajv ${e.n} ${k} (${e.source}) e.g. ${JSON.stringify(e.example)} ${[...e.example].map((c) => "U+" + c.codePointAt(0).toString(16)).filter((u) => u.length > 5 || parseInt(u.slice(2), 16) > 0x7e || parseInt(u.slice(2), 16) < 0x20).join(" ")}`);
}
console.log(`ajv: ${total} strings, ${bad} rejected (${byPattern.size} patterns), ${uncompiled} under patterns ajv cannot compile`);
