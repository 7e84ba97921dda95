// A LangGraph ToolNode as many teams write it: LangChain tools with z.object schemas, a
// z.coerce.number() and a .default(), handed to the prebuilt ToolNode the agent graph runs. The
// node calls each tool's invoke, so what LangChain lets through reaches the tool: invented keys
// stripped, "20" and true taken as numbers, a field the model is told is required left out.
// toolproof: toolproof run --validator node:examples/frameworks/langgraph-loose.mjs
import { tool } from "@langchain/core/tools";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { labels, search } from "./shared.mjs";

export const toolNode = new ToolNode([
  tool(search.run, { name: "search", description: search.description,
    schema: z.object({ ...search.shape, limit: z.coerce.number().int().min(1).max(100),
      sort: search.shape.sort.default("relevance") }) }),
  tool(labels.run, { name: "set_labels", description: labels.description, schema: z.object(labels.shape) }),
]);
