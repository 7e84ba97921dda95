// What the native adapter's framework readers share: finding a package the way the user's module
// would import it (its ESM entry, so that the framework's module instance is the one that made the
// tools), the typical agent's JSON step, Standard Schema issues as toolproof/1 issues, and the
// answer for a gate that threw.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { escapeToken, parseJSONText, pointer } from "./gate.mjs";

export const errorText = (e) => (e instanceof Error ? e.message : String(e));

/** Splits "@scope/name/sub/path" into ["@scope/name", "./sub/path"] ("." for the package itself). */
function splitSpecifier(specifier) {
  const parts = specifier.split("/");
  const n = specifier.startsWith("@") ? 2 : 1;
  const sub = parts.slice(n).join("/");
  return [parts.slice(0, n).join("/"), sub === "" ? "." : `./${sub}`];
}

/** The directory of package pkg as Node finds it from dir: node_modules of dir and its parents. */
export function packageDir(pkg, fromDir) {
  for (let dir = resolve(fromDir); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", pkg);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

const CONDITIONS = new Set(["node", "import", "module", "default"]);

/** The file an exports target names under the import conditions, or undefined. */
function exportTarget(target, star) {
  if (typeof target === "string") return star === undefined ? target : target.replaceAll("*", star);
  if (Array.isArray(target)) {
    for (const t of target) {
      const r = exportTarget(t, star);
      if (r) return r;
    }
    return undefined;
  }
  if (target && typeof target === "object") {
    for (const [k, v] of Object.entries(target)) {
      if (!CONDITIONS.has(k)) continue;
      const r = exportTarget(v, star);
      if (r) return r;
    }
  }
  return undefined;
}

/** The entry file of sub ("." or "./x") in the package at dir, as `import` resolves it. */
function entryFile(dir, sub) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const exp = pkg.exports;
  if (exp === undefined || exp === null) {
    if (sub === ".") return join(dir, pkg.module ?? pkg.main ?? "index.js");
    return join(dir, sub);
  }
  const map = typeof exp === "object" && !Array.isArray(exp) && Object.keys(exp).some((k) => k.startsWith(".")) ? exp : { ".": exp };
  let target;
  if (Object.hasOwn(map, sub)) target = exportTarget(map[sub]);
  else {
    for (const [k, v] of Object.entries(map)) {
      const star = k.indexOf("*");
      if (star < 0) continue;
      const [pre, post] = [k.slice(0, star), k.slice(star + 1)];
      if (sub.startsWith(pre) && sub.endsWith(post) && sub.length >= pre.length + post.length) {
        target = exportTarget(v, sub.slice(pre.length, sub.length - post.length));
        break;
      }
    }
  }
  return target === undefined ? undefined : join(dir, target);
}

/**
 * Imports specifier as a module in fromDir would (`import`, not `require`): found in the
 * node_modules of fromDir or its parents, entered by the package's exports under the import
 * conditions. Undefined when there is no such package or entry.
 */
export async function importFrom(specifier, fromDir) {
  const [pkg, sub] = splitSpecifier(specifier);
  const dir = packageDir(pkg, fromDir);
  if (!dir) return undefined;
  const file = entryFile(dir, sub);
  if (!file || !existsSync(file)) return undefined;
  return import(pathToFileURL(file).href);
}

/**
 * Imports specifier as the framework package `via` sees it (its dependency, found from its own
 * directory first), else as the module does; an error naming what to install when neither can.
 */
export async function importVia(specifier, via, moduleDir, why) {
  const viaDir = via ? packageDir(via, moduleDir) : undefined;
  const m = (viaDir && (await importFrom(specifier, viaDir))) || (await importFrom(specifier, moduleDir));
  if (!m) throw new Error(`${why} needs ${specifier} installed where the module can import it (npm install ${via ?? specifier})`);
  return m;
}

/** Segments of a Standard Schema issue path (keys, or {key} objects as valibot gives). */
const segments = (path) => (Array.isArray(path) ? path.map((s) => (s !== null && typeof s === "object" ? s.key : s)) : []);

/** toolproof/1 issues of Standard Schema (or zod) issues; zod's unrecognized keys at each key. */
export function standardIssues(list, message) {
  const out = [];
  for (const i of list ?? []) {
    const path = pointer(segments(i?.path));
    const text = message ?? (typeof i?.message === "string" ? i.message : String(i?.message));
    if (i?.code === "unrecognized_keys" && Array.isArray(i.keys)) {
      for (const k of i.keys) out.push({ path: `${path}/${escapeToken(k)}`, message: text });
    } else {
      out.push({ path, message: text });
    }
  }
  return out.length > 0 ? out : [{ path: "", message: message ?? "arguments do not satisfy the tool schema" }];
}

/** The typical agent's JSON step: JSON.parse, a rejection when it throws. */
export function parseJSON(text) {
  try {
    return { value: parseJSONText(text) };
  } catch (e) {
    const at = /position (\d+)/.exec(e.message);
    return { rejected: { valid: false, issues: [{ path: "", message: `arguments are not valid JSON${at ? ` (at position ${at[1]})` : ""}` }] } };
  }
}

/** Lines of a stack kept with a gate error: the message and the top frames. */
const STACK_LINES = 8;

/**
 * The answer for a gate that threw on an input (an exception out of the framework, not a
 * verdict): {gateError: {message, stack}} with the top of the stack.
 */
export function gateError(e) {
  const message = e instanceof Error ? `${e.name}: ${e.message}` : `thrown: ${String(e)}`;
  const stack = e instanceof Error && typeof e.stack === "string" ? e.stack.split("\n").slice(1, 1 + STACK_LINES).map((l) => l.trim()).join("\n") : "";
  return { gateError: { message: message.slice(0, 2000), stack } };
}

/** Runs f (a framework call); an exception out of it is the gate's error. */
export async function guarded(f) {
  try {
    return { value: await f() };
  } catch (e) {
    return { thrown: gateError(e) };
  }
}
