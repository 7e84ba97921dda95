// The same LangChain tools written so that LangChain's parse holds: no coercion, objects
// `.strict()` so that an invented key is rejected rather than stripped, and no `.default()` (the
// model is told such a field is required; a required field says so to both).
// toolproof: toolproof run --validator node:examples/frameworks/langchain-strict.mjs
import { tool } from "@langchain/core/tools";
import { z } from "zod";

export const tools = [
  tool(async ({ query }) => `results for ${query}`, {
    name: "search",
    description: "Search the code base",
    schema: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(100),
      sort: z.enum(["relevance", "date"]),
    }).strict(),
  }),
  tool(async () => "done", {
    name: "set_labels",
    description: "Set the labels of an issue",
    schema: z.object({
      issue: z.number().int().min(1).max(1000000),
      labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
    }).strict(),
  }),
];
