// Throughput of one adapter process: registers one tool, pipelines N small validate requests with a
// window of W in flight, prints cases/s.
//
//   node bench/throughput.mjs [adapter=ajv] [N=100000] [W=256]

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const [adapter = "ajv", n = "100000", w = "256"] = process.argv.slice(2);
const total = Number(n);
const window = Number(w);

const parameters = {
  type: "object",
  properties: { path: { type: "string" }, limit: { type: "integer", minimum: 1 } },
  required: ["path"],
  additionalProperties: false,
};
// Two valid calls for one invalid one: both paths of the adapter are measured.
const samples = ['{"path":"README.md","limit":20}', '{"path":"src/main.go"}', '{"path":"README.md","limit":"20"}'];
const request = (id) => JSON.stringify({ op: "validate", id, tool: "read", arguments: samples[id % samples.length] });

const child = spawn(process.execPath, [fileURLToPath(new URL(`../adapters/${adapter}.mjs`, import.meta.url))], {
  stdio: ["pipe", "pipe", "inherit"],
});
child.stdin.write(JSON.stringify({ op: "hello", protocol: "toolproof/1" }) + "\n");
child.stdin.write(JSON.stringify({ op: "tool", tool: { name: "read", parameters } }) + "\n");

let sent = 0;
let answered = 0;
let valid = 0;
let started = 0;
/** Sends up to `count` more requests, in one write. */
function send(count) {
  const lines = [];
  for (; count > 0 && sent < total; count--) lines.push(request(sent++));
  if (lines.length > 0) child.stdin.write(lines.join("\n") + "\n");
}

let partial = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  const lines = (partial + chunk).split("\n");
  partial = lines.pop();
  let results = 0;
  for (const line of lines) {
    const m = JSON.parse(line);
    if (m.op === "hello") console.log(`${m.name} ${m.version}`);
    else if (m.op === "tool") {
      if (!m.ok) throw new Error(m.error);
      started = performance.now();
      send(window);
    } else if (m.op === "result") {
      if (m.error !== undefined) throw new Error(m.error);
      if (m.valid) valid++;
      results++;
    }
  }
  answered += results;
  if (answered === total) {
    const seconds = (performance.now() - started) / 1000;
    console.log(`${total} cases (${valid} valid) in ${seconds.toFixed(2)} s: ${Math.round(total / seconds)} cases/s, window ${window}`);
    child.stdin.end();
  } else send(results);
});
child.on("exit", (code) => {
  if (answered !== total) console.error(`adapter exited (${code}) after ${answered} of ${total} answers`);
  process.exitCode = code || (answered === total ? 0 : 1);
});
