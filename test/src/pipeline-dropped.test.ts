import { describe, expect, it } from 'vitest';
import { ToolOrchestrator, type ITool } from '../../src/index.js';
import { makeTool, sleep } from './helpers.js';

describe('a step still pending when its call is stopped', () => {
  it('is dropped quietly: a gate that rejects after its call was aborted leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const controller = new AbortController();
      const tool: ITool = {
        ...makeTool('act', {
          async execute() {
            return { success: true, output: {} };
          },
        }),
        hasSideEffects: true,
      };
      const orchestrator = new ToolOrchestrator({
        tools: [tool],
        // The gate stops its own call, then fails: nobody waits for its answer any more.
        approvalGate: () => {
          controller.abort();
          return Promise.reject(new Error('the gate went away'));
        },
      });
      const result = await orchestrator.processToolCall({
        toolCallRequest: { id: '1', name: 'act', arguments: {} },
        gmiId: 'g',
        personaId: 'p',
        userContext: { userId: 'u' },
        signal: controller.signal,
      });
      expect(result.errorDetails?.code).toBe('ABORTED');
      await sleep(20);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
