// The Mastra leniency the e2e must catch: with a zod inputSchema, validateToolInput tries again
// when zod rejects, and a JSON string given for an array field is parsed into the array
// (json_in_string missed).
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { listTickets } from "./shared.mjs";

export const tools = {
  list_tickets: createTool({ id: "list_tickets", description: listTickets.description,
    inputSchema: z.object(listTickets.shape).strict(), execute: listTickets.run }),
};
