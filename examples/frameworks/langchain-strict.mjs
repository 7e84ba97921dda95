// The same LangChain tools written so that LangChain's parse holds: no coercion, objects
// `.strict()` so that an invented key is rejected rather than stripped, and no `.default()` (the
// model is told such a field is required; a required field says so to both).
// toolproof: toolproof run --validator node:examples/frameworks/langchain-strict.mjs
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { labels, search } from "./shared.mjs";

export const tools = [
  tool(search.run, { name: "search", description: search.description,
    schema: z.object(search.shape).strict() }),
  tool(labels.run, { name: "set_labels", description: labels.description,
    schema: z.object(labels.shape).strict() }),
];
