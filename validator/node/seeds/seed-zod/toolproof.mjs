// toolproof/1 adapter for the seed's zod gatekeeper (validator name seed-zod): serves the
// `execute_code` tool and runs each call through executeAgentToolCall with a tool that records
// what it was given. The tool ran: accepted, and the value passed on is what it got. It did not:
// rejected, one issue per line of the correction prompt, that line as its message (what the
// model is sent back) and the field it names as its path ("a.b" -> /a/b, "root" -> "").

import { readFileSync } from "node:fs";
import { serve } from "../../adapters/protocol.mjs";
import { escapeToken } from "../../adapters/gate.mjs";
import { executeAgentToolCall, executeCodeTool, NOT_JSON } from "./gatekeeper.mjs";
import { z } from "zod";

const zodVersion = JSON.parse(readFileSync(new URL("../../node_modules/zod/package.json", import.meta.url), "utf8")).version;
const parameters = z.toJSONSchema(executeCodeTool.schema, { io: "input" }); // what the model is shown
const ISSUE_LINE = /^- 字段 \[(.*?)\]: /;

function issuesOf(answer) {
  if (answer === NOT_JSON) return [{ path: "", message: answer }];
  const issues = [];
  for (const line of answer.split("\n")) {
    const m = ISSUE_LINE.exec(line);
    if (!m) continue; // the prompt's first and last lines
    const path = m[1] === "root" ? "" : m[1].split(".").map((s) => "/" + escapeToken(s)).join("");
    issues.push({ path, message: line });
  }
  return issues.length > 0 ? issues : [{ path: "", message: answer }];
}

serve({
  name: "seed-zod",
  version: `zod ${zodVersion}`,
  raw: true,
  tools: [{ name: executeCodeTool.name, description: executeCodeTool.description, parameters }],
  compile(_parameters, tool) {
    if (tool?.name !== executeCodeTool.name) throw new Error(`the seed gate has no tool ${JSON.stringify(tool?.name)}`);
    return async (text) => {
      let ran = false;
      let given;
      const answer = await executeAgentToolCall(tool.name, text, async (cleanInput) => {
        ran = true;
        given = cleanInput;
        return "ok";
      });
      return ran ? { valid: true, value: given } : { valid: false, issues: issuesOf(answer) };
    };
  },
});
