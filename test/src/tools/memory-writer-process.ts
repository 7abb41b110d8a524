/**
 * A child process for the memory store's multi-process tests: an orchestrator with `memory_write`
 * on a data folder, writing `<prefix>.<i>` for i = 0..count-1 (count 0: until killed) once a line
 * arrives on stdin, and printing `ok <key>` on stdout after each write answered success.
 *
 *   node --import tsx test/src/tools/memory-writer-process.ts <data folder> <prefix> <count>
 */
import { createInterface } from 'node:readline';
import { ToolOrchestrator } from '../../../src/index.js';
import { MemoryWriteTool } from '../../../src/tools/memory-write.js';

const [dataDir, prefix, countText] = process.argv.slice(2);
const count = Number(countText);
const orchestrator = new ToolOrchestrator({ tools: [new MemoryWriteTool({ dataDir })], allowSideEffects: true });
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();
for (let i = 0; count === 0 || i < count; i++) {
  const key = `${prefix}.${i}`;
  const result = await orchestrator.processToolCall({
    toolCallRequest: { id: key, name: 'memory_write', arguments: { key, value: `value of ${key}`, tags: [prefix] } },
    gmiId: 'g',
    personaId: 'p',
    personaCapabilities: ['capability:memory:write'],
    userContext: { userId: 'u' },
  });
  if (result.isError) {
    process.stderr.write(`${key}: ${JSON.stringify(result.errorDetails)}\n`);
    process.exitCode = 1;
    break;
  }
  process.stdout.write(`ok ${key}\n`);
}
await orchestrator.shutdown();
