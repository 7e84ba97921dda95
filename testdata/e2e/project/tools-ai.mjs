// AI SDK tools of the scratch project, written as a team should: zod input schemas (the SDK
// validates the call with them), `.strict()` objects. The SDK's own defect stays, whatever the
// schema: the error it sends back to the model holds the whole input ("Type validation failed:
// Value: {...}", a leak); scripts/e2e-install allows exactly that.
import { tool } from "ai";
import { z } from "zod";

export const tools = {
  search_docs: tool({
    description: "Search the documentation",
    inputSchema: z.object({
      query: z.string().min(1),
      section: z.enum(["guide", "api", "faq"]),
    }).strict(),
    execute: async ({ query }) => ({ query, hits: [] }),
  }),
  set_priority: tool({
    description: "Set the priority of a ticket",
    inputSchema: z.object({
      id: z.number().int().min(1),
      priority: z.enum(["low", "normal", "urgent"]),
    }).strict(),
    execute: async () => "done",
  }),
};
