// The same MCP server written so that the SDK's parse holds: no coercion, and a `.strict()`
// object (listed with additionalProperties: false, so an invented key is rejected, not stripped).
// toolproof: toolproof run --validator node:examples/frameworks/mcp-strict.mjs
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export const server = new McpServer({ name: "files", version: "1.0.0" });

server.registerTool(
  "read_file",
  {
    description: "Read a text file",
    inputSchema: z.object({
      path: z.string().min(1),
      limit: z.number().int().min(1).max(10000),
    }).strict(),
  },
  async ({ path }) => ({ content: [{ type: "text", text: `contents of ${path}` }] }),
);
