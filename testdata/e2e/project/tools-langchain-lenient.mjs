// The LangChain leniency the e2e must catch: convertToOpenAITool shows the model a closed object,
// but a plain z.object strips a key the model invented and the tool runs (hallucinated_key
// missed).
import { tool } from "@langchain/core/tools";
import { z } from "zod";

export const tools = [
  tool(async () => "assigned", {
    name: "assign_ticket",
    description: "Assign a ticket to people",
    schema: z.object({
      id: z.number().int().min(1),
      assignees: z.array(z.string().min(1)).min(1).max(3),
    }),
  }),
];
