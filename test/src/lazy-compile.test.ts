import { describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/index.js';
import { makeTool } from './helpers.js';

/** A schema that counts how often anything reads into it (compiling it reads it through and through). */
function counted(schema: Record<string, unknown>): { schema: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(schema, {
    get(target, key, receiver) {
      reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { schema: proxy, reads: () => reads };
}

describe('a hand-written tool without generated validators', () => {
  it('has its schema compiled on its first call, not at registration', async () => {
    const output = counted({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    const tool = makeTool('count', {
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      outputSchema: output.schema as never,
      async execute() {
        return { success: true, output: { n: 1 } };
      },
    });
    const orchestrator = new ToolOrchestrator({ tools: [tool] });
    expect(output.reads()).toBe(0);
    const result = await orchestrator.processToolCall({
      toolCallRequest: { id: '1', name: 'count', arguments: {} },
      gmiId: 'g',
      personaId: 'p',
      userContext: { userId: 'u' },
    });
    expect(result.isError).toBe(false);
    expect(output.reads()).toBeGreaterThan(0);
    await orchestrator.shutdown();
  });

  it('whose schema does not compile registers, and its calls answer SCHEMA_INVALID saying why', async () => {
    const tool = makeTool('broken', {
      inputSchema: { type: 'object', properties: { a: { type: 'strin' } } } as never,
      async execute() {
        return { success: true, output: {} };
      },
    });
    const orchestrator = new ToolOrchestrator({ tools: [tool] });
    const result = await orchestrator.processToolCall({
      toolCallRequest: { id: '1', name: 'broken', arguments: {} },
      gmiId: 'g',
      personaId: 'p',
      userContext: { userId: 'u' },
    });
    expect(result.errorDetails?.code).toBe('SCHEMA_INVALID');
    expect(result.errorDetails?.message).toMatch(/input schema does not compile/);
    await orchestrator.shutdown();
  });
});
