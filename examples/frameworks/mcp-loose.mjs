// An MCP server written with the TypeScript SDK as many teams write it, served in process by
// toolproof (no transport): z.coerce.number() lets "20", true and null through as numbers; the
// SDK lists the schema as JSON Schema and parses each call with zod before the handler runs.
// toolproof: toolproof run --validator node:examples/frameworks/mcp-loose.mjs
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export const server = new McpServer({ name: "files", version: "1.0.0" });

server.registerTool(
  "read_file",
  {
    description: "Read a text file",
    inputSchema: {
      path: z.string().min(1),
      limit: z.coerce.number().int().min(1).max(10000),
    },
  },
  async ({ path }) => ({ content: [{ type: "text", text: `contents of ${path}` }] }),
);
