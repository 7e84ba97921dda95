// The LangChain leniency the e2e must catch: convertToOpenAITool shows the model a closed object,
// but a plain z.object strips a key the model invented and the tool runs (hallucinated_key
// missed).
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { assignTicket } from "./shared.mjs";

export const tools = [
  tool(assignTicket.run, { name: "assign_ticket", description: assignTicket.description,
    schema: z.object(assignTicket.shape) }),
];
