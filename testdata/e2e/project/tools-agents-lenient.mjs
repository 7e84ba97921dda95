// The OpenAI Agents SDK leniency the e2e must catch: a JSON Schema `parameters` is shown to the
// model, but the SDK runs only JSON.parse before `execute`, so a call without `id` reaches the
// tool (missing_required missed).
import { tool } from "@openai/agents";
import { closeTicket, jsonSchemaOf } from "./shared.mjs";

export const tools = [
  tool({ name: "close_ticket", description: closeTicket.description,
    parameters: jsonSchemaOf(closeTicket), strict: true, execute: closeTicket.run }),
];
