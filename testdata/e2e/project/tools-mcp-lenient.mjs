// The MCP TypeScript SDK leniency the e2e must catch: z.coerce.number() in an inputSchema shape
// lets true, "1" and [1] through as numbers, and the handler runs (wrong_type missed).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { getTicket } from "./shared.mjs";

export const server = new McpServer({ name: "desk", version: "1.0.0" });

server.registerTool("get_ticket", { description: getTicket.description,
  inputSchema: { id: z.coerce.number().int().min(1) } },
  async (args) => ({ content: [{ type: "text", text: await getTicket.run(args) }] }));
