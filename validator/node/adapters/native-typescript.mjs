// A TypeScript tool module (.ts, .mts, .cts) for the native adapter: Node.js runs it with its own
// type stripping, on by default from 23.6 and behind --experimental-strip-types from 22.6. Where
// this Node has it but not on, the adapter runs itself again with the flag (the child inherits
// stdin, stdout and stderr, so it speaks toolproof/1 in its place); where this Node has none, one
// line says what to do.

import { spawn } from "node:child_process";
import { extname } from "node:path";

const TYPESCRIPT = new Set([".ts", ".mts", ".cts"]);
const FLAG = "--experimental-strip-types";

/** Whether this Node.js (major, minor) can strip types at all. */
const canStrip = ([major, minor]) => major > 22 || (major === 22 && minor >= 6);

/**
 * For a TypeScript module: returns when this process can import it; else runs the adapter again
 * with type stripping (and exits with that run's status), or says in one line what to do and
 * exits with status 2. For any other module it returns at once.
 */
export async function ensureTypeScript(modulePath, log) {
  if (!TYPESCRIPT.has(extname(modulePath).toLowerCase())) return;
  if (process.features?.typescript || process.execArgv.includes(FLAG)) return;
  const version = process.versions.node.split(".").map(Number);
  if (!canStrip(version)) {
    log(`${modulePath} is TypeScript, which Node.js ${process.versions.node} cannot run: use Node.js 22.6 or later (on PATH or as TOOLPROOF_NODE; \`npm i -D node@22\` brings it) or compile the module to .mjs`);
    process.exit(2);
  }
  const args = [FLAG, "--disable-warning=ExperimentalWarning", ...process.execArgv, ...process.argv.slice(1)];
  const child = spawn(process.execPath, args, { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0))));
  process.exit(code);
}
