// The AI SDK leniency the e2e must catch: a jsonSchema() inputSchema without a validate function
// is shown to the model but checks nothing, so a call without `id` reaches `execute`
// (missing_required missed).
import { jsonSchema, tool } from "ai";

export const tools = {
  set_priority: tool({
    description: "Set the priority of a ticket",
    inputSchema: jsonSchema({
      type: "object",
      properties: {
        id: { type: "integer", minimum: 1 },
        priority: { type: "string", enum: ["low", "normal", "urgent"] },
      },
      required: ["id", "priority"],
      additionalProperties: false,
    }),
    execute: async () => "done",
  }),
};
