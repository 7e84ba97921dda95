// LangChain tools as many teams write them. LangChain shows the model a closed schema
// (convertToOpenAITool) but parses the call with the zod object as it is: an invented key is
// stripped; z.coerce.number() turns "20" into 20, but also null into 0 and true into 1; a
// `.default()` field is shown to the model as required, and a call without it goes through.
// toolproof: toolproof run --validator node:examples/frameworks/langchain-loose.mjs
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { labels, search } from "./shared.mjs";

export const tools = [
  tool(search.run, {
    name: "search",
    description: search.description,
    // Not .strict(); limit coerced; sort with a default.
    schema: z.object({
      ...search.shape,
      limit: z.coerce.number().int().min(1).max(100),
      sort: search.shape.sort.default("relevance"),
    }),
  }),
  tool(labels.run, { name: "set_labels", description: labels.description, schema: z.object(labels.shape) }),
];
