// The AI SDK leniency the e2e must catch: a jsonSchema() inputSchema without a validate function
// is shown to the model but checks nothing, so a call without `id` reaches `execute`
// (missing_required missed).
import { jsonSchema, tool } from "ai";
import { jsonSchemaOf, setPriority } from "./shared.mjs";

export const tools = {
  set_priority: tool({ description: setPriority.description,
    inputSchema: jsonSchema(jsonSchemaOf(setPriority)), execute: setPriority.run }),
};
