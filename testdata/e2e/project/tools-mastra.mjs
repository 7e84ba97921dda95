// A Mastra tool of the scratch project, written as a team should: a JSON Schema inputSchema
// (Mastra parses JSON strings only into a zod object's fields), every field required, none
// nullable, no default. Mastra's own defects stay, whatever the schema: its error message ends
// with the whole input ("Provided arguments: {...}", a leak), and arrays nested thousands deep
// throw a RangeError out of it (gate_error). scripts/e2e-install allows exactly those.
import { createTool } from "@mastra/core/tools";
import { jsonSchemaOf, listTickets } from "./shared.mjs";

export const tools = {
  list_tickets: createTool({ id: "list_tickets", description: listTickets.description,
    inputSchema: jsonSchemaOf(listTickets), execute: listTickets.run }),
};
