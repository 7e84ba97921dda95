// Mastra tools as many teams write them, with a zod inputSchema. Before `execute`, Mastra's
// validateToolInput tries again when zod rejects: a JSON string given for an array or object
// field is parsed into it, a null is dropped so that a default (or nothing) takes its place, a
// null call becomes {}; its error message repeats the arguments to the model; and a deeply
// nested array throws a RangeError out of it.
// toolproof: toolproof run --validator node:examples/frameworks/mastra-loose.mjs
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { issues } from "./shared.mjs";

export const tools = {
  search_issues: createTool({
    id: "search_issues",
    description: issues.description,
    // A zod object, with a default for state.
    inputSchema: z.object({ ...issues.shape, state: issues.shape.state.default("open") }).strict(),
    execute: issues.run,
  }),
};
