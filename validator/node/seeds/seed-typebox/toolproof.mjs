// toolproof/1 adapter for the seed's TypeBox gate (validator name seed-typebox): serves the `read`
// tool and answers each call with what parseToolArguments does. Accepted: the value it returns.
// Rejected: one issue per line of the ToolArgumentsValidationError, the line as its message
// ("POINTER: message", which is what a caller would log or show the model) and the pointer
// before ": " as its path.

import { serve } from "../../adapters/protocol.mjs";
import { parseToolArguments, ToolArgumentsValidationError } from "./validation.mjs";
import { readTool } from "./read.mjs";
import { readFileSync } from "node:fs";

const typeboxVersion = JSON.parse(readFileSync(new URL("../../node_modules/typebox/package.json", import.meta.url), "utf8")).version;
const tools = [readTool];

/** {path, message} of one "POINTER: message" issue line. */
function issueOf(line) {
  const at = line.indexOf(": ");
  const path = at < 0 ? "" : line.slice(0, at);
  return { path: path === "/" ? "" : path, message: line };
}

serve({
  name: "seed-typebox",
  version: `typebox ${typeboxVersion}`,
  raw: true,
  tools: tools.map(({ name, description, parameters }) => ({ name, description, parameters: JSON.parse(JSON.stringify(parameters)) })),
  compile(_parameters, tool) {
    const t = tools.find((x) => x.name === tool?.name);
    if (!t) throw new Error(`the seed gate has no tool ${JSON.stringify(tool?.name)}`);
    return (text) => {
      try {
        return { valid: true, value: parseToolArguments(t, text) };
      } catch (e) {
        if (!(e instanceof ToolArgumentsValidationError)) throw e;
        return { valid: false, issues: e.issues.map(issueOf) };
      }
    };
  },
});
