// The same tools as loose.mjs, gated strictly: no coercion, no unknown keys, no defaults.
// toolproof: go run ./cmd/toolproof run --validator node:examples/native/strict.mjs
import { z } from "zod";

export const tools = [
  {
    name: "read_file",
    description: "Read a text file",
    schema: z.object({
      path: z.string().min(1),
      limit: z.number().int().min(1).max(10000).optional(),
      recursive: z.boolean().optional(),
    }).strict(),
  },
  {
    name: "set_labels",
    description: "Set the labels of an issue",
    schema: z.object({
      issue: z.number().int().min(1).max(1000000),
      labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
    }).strict(),
  },
  {
    name: "search",
    description: "Search the code base",
    schema: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(100).optional(),
    }).strict(),
  },
];
