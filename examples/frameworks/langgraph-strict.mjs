// The same ToolNode with its tools written strictly: `.strict()` objects, no `.coerce`, no
// `.default()` on a field the model must send.
// toolproof: toolproof run --validator node:examples/frameworks/langgraph-strict.mjs
import { tool } from "@langchain/core/tools";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { labels, search } from "./shared.mjs";

export const toolNode = new ToolNode([
  tool(search.run, { name: "search", description: search.description, schema: z.object(search.shape).strict() }),
  tool(labels.run, { name: "set_labels", description: labels.description, schema: z.object(labels.shape).strict() }),
]);
