// The MCP TypeScript SDK leniency the e2e must catch: z.coerce.number() in an inputSchema shape
// lets true, "1" and [1] through as numbers, and the handler runs (wrong_type missed).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export const server = new McpServer({ name: "desk", version: "1.0.0" });

server.registerTool(
  "get_ticket",
  {
    description: "Read a support ticket",
    inputSchema: { id: z.coerce.number().int().min(1) },
  },
  async ({ id }) => ({ content: [{ type: "text", text: `ticket ${id}` }] }),
);
