// AI SDK tools of the scratch project, written as a team should: zod input schemas (the SDK
// validates the call with them), `.strict()` objects. The SDK's own defect stays, whatever the
// schema: the error it sends back to the model holds the whole input ("Type validation failed:
// Value: {...}", a leak); scripts/e2e-install allows exactly that.
import { tool } from "ai";
import { z } from "zod";
import { searchDocs, setPriority } from "./shared.mjs";

// zod input schemas, .strict(): the SDK validates the call with them.
const strict = (t) => tool({ description: t.description, inputSchema: z.object(t.shape).strict(), execute: t.run });

export const tools = { search_docs: strict(searchDocs), set_priority: strict(setPriority) };
