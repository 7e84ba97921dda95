// The OpenAI Agents SDK leniency the e2e must catch: a JSON Schema `parameters` is shown to the
// model, but the SDK runs only JSON.parse before `execute`, so a call without `id` reaches the
// tool (missing_required missed).
import { tool } from "@openai/agents";

export const tools = [
  tool({
    name: "close_ticket",
    description: "Close a support ticket",
    parameters: {
      type: "object",
      properties: {
        id: { type: "integer", minimum: 1 },
        reason: { type: "string", enum: ["fixed", "duplicate", "wontfix"] },
      },
      required: ["id", "reason"],
      additionalProperties: false,
    },
    strict: true,
    execute: async ({ id }) => `closed ${id}`,
  }),
];
