// The same Mastra tool written so that Mastra's input validation holds: the inputSchema is a
// JSON Schema (Mastra parses JSON strings into array and object fields only for zod objects), every
// field is required and none is nullable (a null is dropped, and then missing), with no default
// (so that nothing fills a dropped null in).
// toolproof: toolproof run --validator node:examples/frameworks/mastra-strict.mjs
import { createTool } from "@mastra/core/tools";
import { issues } from "./shared.mjs";

export const tools = {
  search_issues: createTool({ id: "search_issues", description: issues.description,
    inputSchema: issues.jsonSchema, execute: issues.run }),
};
