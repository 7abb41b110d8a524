// P8c, toolsmith side: `startHttpServer` (what `serve --http` runs) with `count` tools registered from
// their raw JSON Schemas, listening; the harness times process start → the first tools/list answer.
import { startHttpServer } from '../../src/mcp/http.js';
import { ToolOrchestrator } from '../../src/orchestrator.js';
import { manyTools } from '../fixtures.js';

const count = Number(process.argv[2]);
const orchestrator = new ToolOrchestrator({
  tools: manyTools(count).map((tool) => ({
    id: `bench:${tool.name}`,
    name: tool.name,
    displayName: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as object,
    async execute() {
      return { success: true, output: {} };
    },
  })),
});
const server = await startHttpServer(orchestrator, { port: 0, requestTimeoutMs: 30_000, drainTimeoutMs: 2_000 });
process.stdout.write(`LISTENING ${server.url}\n`);
await server.done;
