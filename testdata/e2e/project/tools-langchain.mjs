// LangChain tools of the scratch project, written as a team should: `.strict()` objects, no
// `.coerce`, and no `.default()` (LangChain shows such a field to the model as required). No
// blocking finding.
import { tool } from "@langchain/core/tools";
import { z } from "zod";

export const tools = [
  tool(async ({ query }) => `results for ${query}`, {
    name: "search_docs",
    description: "Search the documentation",
    schema: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(50),
      section: z.enum(["guide", "api", "faq"]),
    }).strict(),
  }),
  tool(async () => "assigned", {
    name: "assign_ticket",
    description: "Assign a ticket to people",
    schema: z.object({
      id: z.number().int().min(1),
      assignees: z.array(z.string().min(1)).min(1).max(3),
    }).strict(),
  }),
];
