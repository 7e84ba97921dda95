// An MCP server written with the TypeScript SDK 2.x (@modelcontextprotocol/server): the
// 2026-07-28 revision only (legacy: 'reject'), stateless, over Streamable HTTP
// (createMcpHandler, toNodeHandler from @modelcontextprotocol/node) behind a bearer token, or over
// stdio (serveStdio). Usage: node v2.mjs [--http PORT] [--mode correct|lenient] [--token TOKEN];
// with --http it prints its URL on the first line of stdout. Loopback only.
import http from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { authorized, listedTools, parseArgs, tools } from './tools.mjs';

const opts = parseArgs(process.argv.slice(2));

function newServer() {
  const server = new McpServer({ name: `alarm-v2-${opts.mode}`, version: '2.0.0' }, { capabilities: { tools: {} } });
  for (const [name, t] of Object.entries(tools(opts.mode))) {
    server.registerTool(name, { description: t.description, inputSchema: t.inputSchema }, async () => ({
      content: [{ type: 'text', text: 'done' }],
    }));
  }
  if (opts.mode === 'lenient') {
    // The planted bug: the listing shows the strict schemas, the gate is the lenient one.
    server.server.setRequestHandler('tools/list', () => ({ tools: listedTools() }));
  }
  return server;
}

if (opts.transport === 'stdio') {
  serveStdio(() => newServer(), { legacy: 'reject' });
} else {
  const handler = toNodeHandler(createMcpHandler(() => newServer(), { legacy: 'reject' }));
  const httpServer = http.createServer((req, res) => {
    if (!authorized(req, opts.token)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end('{"error":"invalid_token"}');
      return;
    }
    handler(req, res);
  });
  httpServer.listen(opts.port, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${httpServer.address().port}/mcp`);
  });
}
