// LangChain tools as many teams write them. LangChain shows the model a closed schema
// (convertToOpenAITool) but parses the call with the zod object as it is: an invented key is
// stripped; z.coerce.number() turns "20" into 20, but also null into 0 and true into 1; a
// `.default()` field is shown to the model as required, and a call without it goes through.
// toolproof: toolproof run --validator node:examples/frameworks/langchain-loose.mjs
import { tool } from "@langchain/core/tools";
import { z } from "zod";

export const tools = [
  tool(async ({ query }) => `results for ${query}`, {
    name: "search",
    description: "Search the code base",
    schema: z.object({
      query: z.string().min(1),
      limit: z.coerce.number().int().min(1).max(100),
      sort: z.enum(["relevance", "date"]).default("relevance"),
    }),
  }),
  tool(async () => "done", {
    name: "set_labels",
    description: "Set the labels of an issue",
    schema: z.object({
      issue: z.number().int().min(1).max(1000000),
      labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
    }),
  }),
];
