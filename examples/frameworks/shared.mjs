// The example tools every framework module here is written with: each tool's description,
// arguments (a zod shape, and where a module shows the model JSON Schema, the same arguments as
// JSON Schema) and what it does when called (run). A framework's loose and strict modules differ
// only in how they hand these to the framework (that wiring is what each module is there to show);
// each names its tools itself, so that a report can point at the line that defines a tool.
import { z } from "zod";

export const weather = {
  description: "Current weather of a city",
  shape: { city: z.string().min(1), unit: z.enum(["celsius", "fahrenheit"]) },
  jsonSchema: {
    type: "object",
    properties: {
      city: { type: "string", minLength: 1 },
      unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    },
    required: ["city", "unit"],
    additionalProperties: false,
  },
  run: async ({ city }) => ({ city, temperature: 21 }),
};

export const labels = {
  description: "Set the labels of an issue",
  shape: {
    issue: z.number().int().min(1).max(1000000),
    labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
  },
  run: async () => "done",
};

export const search = {
  description: "Search the code base",
  shape: {
    query: z.string().min(1),
    limit: z.number().int().min(1).max(100),
    sort: z.enum(["relevance", "date"]),
  },
  run: async ({ query }) => `results for ${query}`,
};

export const issues = {
  description: "Search the issue tracker",
  shape: {
    query: z.string().min(1),
    labels: z.array(z.enum(["bug", "docs", "feature"])),
    state: z.enum(["open", "closed"]),
  },
  jsonSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1 },
      labels: { type: "array", items: { enum: ["bug", "docs", "feature"] } },
      state: { enum: ["open", "closed"] },
    },
    required: ["query", "labels", "state"],
    additionalProperties: false,
  },
  run: async () => [],
};

export const file = {
  description: "Read a text file",
  shape: { path: z.string().min(1), limit: z.number().int().min(1).max(10000) },
  run: async ({ path }) => `contents of ${path}`,
};
