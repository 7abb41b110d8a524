// An MCP stdio server that lists the tools of a `tools/list` answer exactly as saved and answers each
// call with the arguments it received (as JSON text), so host code can be run on a real server's tools.
//
//   node corpus-server.mjs <tools.json>
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const { tools } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const server = new Server({ name: 'corpus', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [
    { type: 'text', text: JSON.stringify({ tool: request.params.name, arguments: request.params.arguments ?? {} }) },
  ],
}));
await server.connect(new StdioServerTransport());
