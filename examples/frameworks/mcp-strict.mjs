// The same MCP server written so that the SDK's parse holds: no coercion, and a `.strict()`
// object (listed with additionalProperties: false, so an invented key is rejected, not stripped).
// toolproof: toolproof run --validator node:examples/frameworks/mcp-strict.mjs
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { file } from "./shared.mjs";

export const server = new McpServer({ name: "files", version: "1.0.0" });

server.registerTool(
  "read_file",
  { description: file.description, inputSchema: z.object(file.shape).strict() },
  async (args) => ({ content: [{ type: "text", text: await file.run(args) }] }),
);
