// LangChain tools of the scratch project, written as a team should: `.strict()` objects, no
// `.coerce`, and no `.default()` (LangChain shows such a field to the model as required). No
// blocking finding.
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { assignTicket, searchDocs } from "./shared.mjs";

// .strict() zod objects, no .coerce, no .default().
const strict = (name, t) => tool(t.run, { name, description: t.description, schema: z.object(t.shape).strict() });

export const tools = [strict("search_docs", searchDocs), strict("assign_ticket", assignTicket)];
