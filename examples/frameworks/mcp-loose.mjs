// An MCP server written with the TypeScript SDK as many teams write it, served in process by
// toolproof (no transport): z.coerce.number() lets "20", true and null through as numbers; the
// SDK lists the schema as JSON Schema and parses each call with zod before the handler runs.
// toolproof: toolproof run --validator node:examples/frameworks/mcp-loose.mjs
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { file } from "./shared.mjs";

export const server = new McpServer({ name: "files", version: "1.0.0" });

server.registerTool(
  "read_file",
  // A zod shape (listed open), limit coerced.
  { description: file.description, inputSchema: { ...file.shape, limit: z.coerce.number().int().min(1).max(10000) } },
  async (args) => ({ content: [{ type: "text", text: await file.run(args) }] }),
);
