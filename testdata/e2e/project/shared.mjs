// The help desk tools every tools*.mjs here is written with: each tool's description, arguments
// (a zod shape) and what it does when called (run). Each module names its tools (a report points at
// that line) and says only how its framework is handed them, strictly (tools-FRAMEWORK.mjs) or
// leniently (tools-FRAMEWORK-lenient.mjs).
import { z } from "zod";

// jsonSchemaOf is the JSON Schema of a tool's arguments, for a module that shows the model JSON
// Schema rather than zod: a closed object, every field required. It is plain JSON, as a team's
// own JSON Schema is: zod's toJSONSchema result also carries zod's validator (a hidden
// `~standard`), which the Agents SDK would then run.
export const jsonSchemaOf = (t) =>
  JSON.parse(JSON.stringify(z.toJSONSchema(z.object(t.shape).strict(), { io: "input" })));

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
  run: async ({ id }) => `closed ${id}`,
};

export const setPriority = {
  description: "Set the priority of a ticket",
  shape: { id, priority: z.enum(["low", "normal", "urgent"]) },
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
