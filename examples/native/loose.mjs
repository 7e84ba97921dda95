// A tool module as many teams write it: zod schemas that bend. `.coerce` turns "20" into 20 and
// "false" into true, `.passthrough()` lets invented keys through, `.default()` fills in a value.
// toolproof: go run ./cmd/toolproof run --validator node:examples/native/loose.mjs
import { z } from "zod";

// The schema shown to the model is closed (additionalProperties: false), as OpenAI's strict mode
// and the AI SDK make it; the gate behind it is not.
const closed = (schema) => ({ ...z.toJSONSchema(schema, { io: "input" }), additionalProperties: false });
const labels = z.object({
  issue: z.number().int().min(1).max(1000000),
  labels: z.array(z.enum(["bug", "docs", "feature"])).min(1),
});

export const tools = [
  {
    name: "read_file",
    description: "Read a text file",
    schema: z.object({
      path: z.string().min(1),
      limit: z.coerce.number().int().min(1).max(10000).optional(),
      recursive: z.coerce.boolean().optional(),
    }).strict(),
  },
  {
    name: "set_labels",
    description: "Set the labels of an issue",
    schema: labels.passthrough(),
    parameters: closed(labels),
  },
  {
    name: "search",
    description: "Search the code base",
    schema: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(100).default(10),
    }).strict(),
  },
];
