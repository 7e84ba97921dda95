// The tools of the scratch project scripts/e2e-install builds outside the checkout: a module of
// native tools as a team writes it, gated by its own libraries (from this project's
// node_modules, never toolproof's). toolproof run --validator node:./tools.mjs must find
// nothing: every gate here is strict. Add a framework's tools as a module of their own and
// list it in scripts/e2e-install.
import { z } from "zod";

export const tools = [
  {
    name: "get_weather",
    description: "The current weather in a city",
    schema: z.object({
      city: z.string().min(1),
      unit: z.enum(["celsius", "fahrenheit"]).optional(),
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
];
