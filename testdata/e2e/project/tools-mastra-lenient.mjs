// The Mastra leniency the e2e must catch: with a zod inputSchema, validateToolInput tries again
// when zod rejects, and a JSON string given for an array field is parsed into the array
// (json_in_string missed).
import { createTool } from "@mastra/core/tools";
import { z } from "zod";

export const tools = {
  list_tickets: createTool({
    id: "list_tickets",
    description: "List the tickets in a queue",
    inputSchema: z.object({
      queue: z.string().min(1),
      states: z.array(z.enum(["open", "pending", "closed"])),
    }).strict(),
    execute: async () => [],
  }),
};
