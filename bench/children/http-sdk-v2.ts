// P8b/P8c baseline: the official v2 SDK's `McpServer` behind its own `createMcpHandler` (both eras from
// one factory, a fresh instance per request as the SDK serves HTTP), mounted on node:http with the
// SDK's `toNodeHandler`. argv: `one` (add_numbers, P8b) or `many <count>` (P8c).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { ADD_NUMBERS_TOOL, manyTools } from '../fixtures.js';

const [mode, count] = process.argv.slice(2);
const addNumbers = ADD_NUMBERS_TOOL as { name: string; description: string; inputSchema: object; outputSchema: object };
const many = mode === 'many' ? manyTools(Number(count)) : [];

function factory(): McpServer {
  const server = new McpServer({ name: 'sdk-bench', version: '1.0.0' });
  if (mode === 'many') {
    for (const tool of many)
      server.registerTool(
        tool.name,
        { description: tool.description, inputSchema: fromJsonSchema(tool.inputSchema as never) },
        async () => ({ content: [{ type: 'text', text: '{}' }] }),
      );
    return server;
  }
  server.registerTool(
    addNumbers.name,
    {
      description: addNumbers.description,
      inputSchema: fromJsonSchema(addNumbers.inputSchema as never),
      outputSchema: fromJsonSchema(addNumbers.outputSchema as never),
    },
    async (args: unknown) => {
      const { a, b } = args as { a: number; b: number };
      const output = { sum: a + b };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    },
  );
  return server;
}

const handler = toNodeHandler(createMcpHandler(factory));
const http = createServer((request, response) => {
  if (request.url !== '/mcp') {
    response.writeHead(404).end();
    return;
  }
  void handler(request, response);
});
http.listen(0, '127.0.0.1', () =>
  process.stdout.write(`LISTENING http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`),
);
process.once('SIGTERM', () => {
  http.close();
  http.closeAllConnections();
});
