// The JSON parse gate every Node adapter puts in front of its library, and the helpers that turn a
// library's errors into toolproof/1 issues: JSON Pointer paths, messages that never repeat values.

// ignoreBOM keeps a leading U+FEFF in the text, so JSON.parse rejects it exactly as it would in
// `arguments`; without it TextDecoder would silently drop the BOM.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** One issue at the root. */
const rootIssue = (message, keyword) => ({ valid: false, issues: [{ path: "", message, keyword }] });

/**
 * Raw text of a validate request: {text} or, when the bytes are not UTF-8, a rejection.
 * Throws when the request carries neither `arguments` nor `arguments_base64`.
 */
export function argumentText(m) {
  if (typeof m.arguments === "string") return { text: m.arguments };
  if (typeof m.arguments_base64 !== "string") throw new Error("validate carries neither arguments nor arguments_base64");
  try {
    return { text: utf8.decode(Buffer.from(m.arguments_base64, "base64")) };
  } catch {
    return { rejected: rootIssue("arguments are not valid UTF-8", "utf8") };
  }
}

/**
 * JSON.parse of text, throwing as it does, without the stack trace: an input that is not JSON is
 * a verdict here, and capturing the stack of each costs more than the parse.
 */
export function parseJSONText(text) {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return JSON.parse(text);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Raw text -> {data} (a plain object) or {rejected} (a result with an issue at the root). */
export function parseArguments(text) {
  let data;
  try {
    data = parseJSONText(text);
  } catch (e) {
    // V8's message quotes the input; keep only the position.
    const at = /position (\d+)/.exec(e.message);
    return { rejected: rootIssue(`arguments are not valid JSON${at ? ` (at position ${at[1]})` : ""}`, "json") };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return { rejected: rootIssue("arguments must be a JSON object", "type") };
  }
  return { data };
}

/** RFC 6901 escaping of one reference token. */
export const escapeToken = (token) => String(token).replaceAll("~", "~0").replaceAll("/", "~1");

/** JSON Pointer of a list of path segments (property names or array indexes). */
export const pointer = (segments) => segments.map((s) => "/" + escapeToken(s)).join("");

/** The instance at a JSON Pointer, or undefined. */
export function valueAt(root, path) {
  let v = root;
  for (const token of path.split("/").slice(1)) {
    if (v === null || typeof v !== "object") return undefined;
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!Object.hasOwn(v, key)) return undefined;
    v = v[key];
  }
  return v;
}

/**
 * An issue whose message is safe to show: when the library's message repeats the string or number
 * found at that path, a generic message built from the keyword replaces it.
 */
export function issue(root, path, message, keyword) {
  const v = path === "" ? undefined : valueAt(root, path);
  const s = typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
  if (typeof message !== "string" || message === "" || (s.length >= 3 && message.includes(s))) {
    message = keyword ? `must satisfy "${keyword}"` : "invalid value";
  }
  return keyword === undefined ? { path, message } : { path, message, keyword };
}
