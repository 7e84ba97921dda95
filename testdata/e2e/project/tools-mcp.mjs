// An MCP server of the scratch project (TypeScript SDK), written as a team should: `.strict()`
// object schemas (listed with additionalProperties: false), no `.coerce`. node: serves it in
// process; accepted calls run the handlers. The SDK's own defect stays: a "__proto__" key is
// dropped by its request parsing before the tool's schema sees it (scripts/e2e-install allows
// exactly that).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export const server = new McpServer({ name: "desk", version: "1.0.0" });

server.registerTool(
  "get_ticket",
  {
    description: "Read a support ticket",
    inputSchema: z.object({ id: z.number().int().min(1) }).strict(),
  },
  async ({ id }) => ({ content: [{ type: "text", text: `ticket ${id}` }] }),
);

server.registerTool(
  "comment_ticket",
  {
    description: "Comment on a support ticket",
    inputSchema: z.object({
      id: z.number().int().min(1),
      body: z.string().min(1).max(2000),
      internal: z.boolean(),
    }).strict(),
  },
  async ({ id }) => ({ content: [{ type: "text", text: `commented on ${id}` }] }),
);
