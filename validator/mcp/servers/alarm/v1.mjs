// An MCP server written with the TypeScript SDK 1.x (@modelcontextprotocol/sdk): McpServer over
// stdio, or over Streamable HTTP with sessions (Mcp-Session-Id) and SSE answers, behind a bearer
// token. Usage: node v1.mjs [--http PORT] [--mode correct|lenient] [--token TOKEN]; with --http it
// prints its URL on the first line of stdout. Loopback only.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { authorized, listedTools, parseArgs, tools } from './tools.mjs';

const opts = parseArgs(process.argv.slice(2));

function newServer() {
  const server = new McpServer({ name: `alarm-v1-${opts.mode}`, version: '1.0.0' });
  for (const [name, t] of Object.entries(tools(opts.mode))) {
    server.registerTool(name, { description: t.description, inputSchema: t.inputSchema }, async () => ({
      content: [{ type: 'text', text: 'done' }],
    }));
  }
  if (opts.mode === 'lenient') {
    // The planted bug: the listing shows the strict schemas, the gate is the lenient one.
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));
  }
  return server;
}

if (opts.transport === 'stdio') {
  await newServer().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const httpServer = http.createServer(async (req, res) => {
    if (!authorized(req, opts.token)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end('{"error":"invalid_token"}');
      return;
    }
    const id = req.headers['mcp-session-id'];
    let body;
    if (req.method === 'POST') {
      const text = await readBody(req);
      try {
        body = JSON.parse(text);
      } catch {
        res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
        return;
      }
    }
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (req.method !== 'POST' || id || !isInitializeRequest(body)) {
        res.writeHead(id ? 404 : 400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: id ? 'Session not found' : 'Bad Request: Server not initialized' } }));
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(opts.port, '127.0.0.1', () => {
    console.log(`http://127.0.0.1:${httpServer.address().port}/mcp`);
  });
}
