// OpenAI Agents SDK tools of the scratch project, written as a team should: zod `parameters`
// (the SDK parses the call with them before `execute`), every object `.strict()` so that an
// invented key is rejected rather than stripped, no coercion. No blocking finding.
import { tool } from "@openai/agents";
import { z } from "zod";

export const tools = [
  tool({
    name: "create_ticket",
    description: "Open a support ticket",
    parameters: z.object({
      title: z.string().min(1).max(200),
      priority: z.enum(["low", "normal", "urgent"]),
      tags: z.array(z.string().min(1)).max(5),
    }).strict(),
    execute: async ({ title }) => `opened: ${title}`,
  }),
  tool({
    name: "close_ticket",
    description: "Close a support ticket",
    parameters: z.object({
      id: z.number().int().min(1),
      reason: z.enum(["fixed", "duplicate", "wontfix"]),
    }).strict(),
    execute: async ({ id }) => `closed ${id}`,
  }),
];
