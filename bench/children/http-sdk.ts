// P8 baseline: the official SDK's McpServer (tool registered with zod), a stateless Streamable HTTP
// transport per request as the SDK's own stateless example does, JSON responses like toolsmith's, on node:http.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const http = createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/mcp') {
    response.writeHead(404).end();
    return;
  }
  const server = new McpServer({ name: 'sdk-bench', version: '1.0.0' });
  server.registerTool(
    'add_numbers',
    {
      description: 'Adds two numbers.',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => {
      const output = { sum: a + b };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    },
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  server
    .connect(transport)
    .then(() => transport.handleRequest(request, response))
    .catch((error: unknown) => {
      process.stderr.write(`sdk bench server: ${String(error)}\n`);
      if (!response.headersSent) response.writeHead(500).end();
    });
});
http.listen(0, '127.0.0.1', () =>
  process.stdout.write(`LISTENING http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`),
);
process.once('SIGTERM', () => {
  http.close();
  http.closeAllConnections();
});
