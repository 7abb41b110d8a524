// P8 server: toolsmith's `startHttpServer` (stateless Streamable HTTP, no auth, loopback) serving add_numbers.
import { startHttpServer } from '../../src/mcp/http.js';
import { ToolOrchestrator } from '../../src/orchestrator.js';
import { ADD_NUMBERS_TOOL } from '../fixtures.js';

const definition = ADD_NUMBERS_TOOL as { name: string; description: string; inputSchema: object; outputSchema: object };
const orchestrator = new ToolOrchestrator({
  tools: [
    {
      id: 'bench:add_numbers',
      name: definition.name,
      displayName: 'Add numbers',
      description: definition.description,
      inputSchema: definition.inputSchema,
      outputSchema: definition.outputSchema,
      async execute(args: { a: number; b: number }) {
        return { success: true, output: { sum: args.a + args.b } };
      },
    },
  ],
});
const server = await startHttpServer(orchestrator, { port: 0, requestTimeoutMs: 30_000, drainTimeoutMs: 2_000 });
process.stdout.write(`LISTENING ${server.url}\n`);
await server.done;
