// The tools of the scratch project scripts/e2e-install builds outside the checkout: a module of
// native tools as a team writes it, gated by its own libraries (from this project's
// node_modules, never toolproof's). toolproof run --validator node:./tools.mjs must find
// nothing: every gate here is strict. The tools are shared.mjs's; add a framework's as a module
// of their own (tools-FRAMEWORK.mjs) and give it an entry in ../expect.json.
import { z } from "zod";
import { createTicket, getTicket } from "./shared.mjs";

// Native tools: {name, description, schema}, the schema a .strict() zod object.
const strict = (name, t) => ({ name, description: t.description, schema: z.object(t.shape).strict() });

export const tools = [strict("create_ticket", createTicket), strict("get_ticket", getTicket)];
