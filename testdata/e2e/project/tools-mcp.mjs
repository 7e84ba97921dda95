// An MCP server of the scratch project (TypeScript SDK), written as a team should: `.strict()`
// object schemas (listed with additionalProperties: false), no `.coerce`. node: serves it in
// process; accepted calls run the handlers. The SDK's own defect stays: a "__proto__" key is
// dropped by its request parsing before the tool's schema sees it (scripts/e2e-install allows
// exactly that).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { commentTicket, getTicket } from "./shared.mjs";

export const server = new McpServer({ name: "desk", version: "1.0.0" });

// .strict() zod objects (listed with additionalProperties: false), no .coerce.
const register = (name, t) =>
  server.registerTool(name, { description: t.description, inputSchema: z.object(t.shape).strict() },
    async (args) => ({ content: [{ type: "text", text: await t.run(args) }] }));

register("get_ticket", getTicket);
register("comment_ticket", commentTicket);
