// The help desk tools every tools*.mjs here is written with: each tool's description,
// arguments (a zod shape, and where a module shows the model JSON Schema, the same arguments as
// JSON Schema) and what it does when called (run). Each module names its tools (a report points at
// that line) and says only how its framework is handed them, strictly (tools-FRAMEWORK.mjs) or
// leniently (tools-FRAMEWORK-lenient.mjs).
import { z } from "zod";

const id = z.number().int().min(1);

export const createTicket = {
  description: "Open a support ticket",
  shape: {
    title: z.string().min(1).max(200),
    priority: z.enum(["low", "normal", "urgent"]),
    tags: z.array(z.string().min(1)).max(5),
  },
  run: async ({ title }) => `opened: ${title}`,
};

export const closeTicket = {
  description: "Close a support ticket",
  shape: { id, reason: z.enum(["fixed", "duplicate", "wontfix"]) },
  jsonSchema: {
    type: "object",
    properties: {
      id: { type: "integer", minimum: 1 },
      reason: { type: "string", enum: ["fixed", "duplicate", "wontfix"] },
    },
    required: ["id", "reason"],
    additionalProperties: false,
  },
  run: async ({ id }) => `closed ${id}`,
};

export const setPriority = {
  description: "Set the priority of a ticket",
  shape: { id, priority: z.enum(["low", "normal", "urgent"]) },
  jsonSchema: {
    type: "object",
    properties: {
      id: { type: "integer", minimum: 1 },
      priority: { type: "string", enum: ["low", "normal", "urgent"] },
    },
    required: ["id", "priority"],
    additionalProperties: false,
  },
  run: async () => "done",
};

export const assignTicket = {
  description: "Assign a ticket to people",
  shape: { id, assignees: z.array(z.string().min(1)).min(1).max(3) },
  run: async () => "assigned",
};

export const searchDocs = {
  description: "Search the documentation",
  shape: {
    query: z.string().min(1),
    limit: z.number().int().min(1).max(50),
    section: z.enum(["guide", "api", "faq"]),
  },
  run: async ({ query }) => ({ query, hits: [] }),
};

export const listTickets = {
  description: "List the tickets in a queue",
  shape: {
    queue: z.string().min(1),
    states: z.array(z.enum(["open", "pending", "closed"])),
    limit: z.number().int().min(1).max(100),
  },
  jsonSchema: {
    type: "object",
    properties: {
      queue: { type: "string", minLength: 1 },
      states: { type: "array", items: { enum: ["open", "pending", "closed"] } },
      limit: { type: "integer", minimum: 1, maximum: 100 },
    },
    required: ["queue", "states", "limit"],
    additionalProperties: false,
  },
  run: async () => [],
};

export const getTicket = {
  description: "Read a support ticket",
  shape: { id },
  run: async ({ id }) => `ticket ${id}`,
};

export const commentTicket = {
  description: "Comment on a support ticket",
  shape: { id, body: z.string().min(1).max(2000), internal: z.boolean() },
  run: async ({ id }) => `commented on ${id}`,
};
