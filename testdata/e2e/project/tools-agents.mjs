// OpenAI Agents SDK tools of the scratch project, written as a team should: zod `parameters`
// (the SDK parses the call with them before `execute`), every object `.strict()` so that an
// invented key is rejected rather than stripped, no coercion. No blocking finding.
import { tool } from "@openai/agents";
import { z } from "zod";
import { closeTicket, createTicket } from "./shared.mjs";

// zod parameters, .strict(): the SDK's parse is the gate.
const strict = (name, t) =>
  tool({ name, description: t.description, parameters: z.object(t.shape).strict(), execute: t.run });

export const tools = [strict("create_ticket", createTicket), strict("close_ticket", closeTicket)];
