// toolproof/1 adapter: Zod 4, z.fromJSONSchema(parameters) then safeParse. The value passed on is
// Zod's output (defaults filled in, unknown keys kept or dropped as the converted schema says).

import * as z from "zod";
import { issue, escapeToken, pointer } from "./gate.mjs";
import { libraryVersion, serve } from "./protocol.mjs";

// Zod issue origin -> the JSON Schema keywords of its lower and upper bound.
const bounds = {
  number: ["minimum", "maximum"],
  int: ["minimum", "maximum"],
  string: ["minLength", "maxLength"],
  array: ["minItems", "maxItems"],
  object: ["minProperties", "maxProperties"],
};

/** The JSON Schema keyword behind a Zod issue, where there is one. */
function keyword(i) {
  const [min, max] = bounds[i.origin] ?? [];
  const exclusive = i.inclusive === false && min === "minimum"; // only numbers have exclusive bounds
  switch (i.code) {
    case "invalid_type":
      return "type";
    case "too_small":
      return exclusive ? "exclusiveMinimum" : min;
    case "too_big":
      return exclusive ? "exclusiveMaximum" : max;
    case "not_multiple_of":
      return "multipleOf";
    case "invalid_format":
      return i.format === "regex" ? "pattern" : "format";
    case "invalid_value":
      return i.values?.length === 1 ? "const" : "enum";
    case "invalid_union":
      return "anyOf";
    case "invalid_key":
      return "propertyNames";
  }
}

function issues(data, zodIssues) {
  const out = [];
  for (const i of zodIssues) {
    const path = pointer(i.path);
    if (i.code === "unrecognized_keys") {
      // One issue per key, at the key; Zod's message lists the keys, which come from the input.
      for (const k of i.keys) out.push({ path: `${path}/${escapeToken(k)}`, message: "unrecognized key", keyword: "additionalProperties" });
    } else {
      out.push(issue(data, path, i.message, keyword(i)));
    }
  }
  return out;
}

serve({
  name: "zod",
  version: libraryVersion("zod"),
  compile(parameters) {
    // A registry per tool: fromJSONSchema stores schema metadata there, and the global registry
    // would keep growing (and refuse a repeated $id) as tools are registered again.
    const schema = z.fromJSONSchema(parameters, { registry: z.registry() });
    return (data) => {
      const r = schema.safeParse(data);
      return r.success ? { valid: true, value: r.data } : { valid: false, issues: issues(data, r.error.issues) };
    };
  },
});
