import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolOrchestrator, type ToolCallResult } from '../../src/index.js';
import { callTool, hangingTool, makeTool, sleep } from './helpers.js';

describe('10,000 mixed calls', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('throws, rejects, hangs, bad outputs and aborts give 10,000 results and no unhandled rejection', async () => {
    const o = new ToolOrchestrator({
      tools: [
        makeTool('ok', { execute: async (args) => ({ success: true, output: args.i }) }),
        makeTool('throws', {
          execute: () => {
            throw new Error('sync');
          },
        }),
        makeTool('rejects', { execute: () => Promise.reject(new Error('async')) }),
        makeTool('late_reject', {
          execute: () => sleep(40).then(() => Promise.reject(new Error('after the deadline'))),
        }),
        hangingTool('hangs'),
        makeTool('bad_output', {
          outputSchema: { type: 'integer' },
          execute: async () => ({ success: true, output: 'x' }),
        }),
        makeTool('fails', { execute: async () => ({ success: false, error: 'no' }) }),
        makeTool('slow', {
          execute: (_args, context) =>
            new Promise((resolve, reject) => {
              const timer = setTimeout(() => resolve({ success: true, output: 'slow' }), 5);
              context.signal?.addEventListener('abort', () => (clearTimeout(timer), reject(context.signal?.reason)));
            }),
        }),
      ],
      maxConcurrency: 500,
    });
    const kinds = [
      'ok',
      'throws',
      'rejects',
      'late_reject',
      'hangs',
      'bad_output',
      'fails',
      'slow',
      'aborted',
      'missing',
    ] as const;
    const expected: Record<(typeof kinds)[number], string> = {
      ok: 'OK',
      throws: 'TOOL_ERROR',
      rejects: 'TOOL_ERROR',
      late_reject: 'TIMEOUT',
      hangs: 'TIMEOUT',
      bad_output: 'OUTPUT_INVALID',
      fails: 'TOOL_FAILED',
      slow: 'ABORTED',
      aborted: 'ABORTED',
      missing: 'TOOL_NOT_FOUND',
    };
    let resolutions = 0;
    const calls: Array<Promise<ToolCallResult>> = [];
    const controllers: AbortController[] = [];
    for (let i = 0; i < 10_000; i++) {
      const kind = kinds[i % kinds.length];
      const controller = new AbortController();
      let promise: Promise<ToolCallResult>;
      if (kind === 'aborted') {
        controller.abort();
        promise = callTool(o, 'ok', { i }, { signal: controller.signal });
      } else if (kind === 'slow') {
        controllers.push(controller);
        promise = callTool(o, 'slow', {}, { signal: controller.signal, timeoutMs: 10_000 });
      } else {
        promise = callTool(o, kind, { i }, { timeoutMs: kind === 'hangs' || kind === 'late_reject' ? 20 : undefined });
      }
      calls.push(promise.then((result) => (resolutions++, result)));
    }
    setTimeout(() => controllers.forEach((controller) => controller.abort()), 1);
    const results = await Promise.all(calls);
    await sleep(60); // let late rejections land
    expect(results).toHaveLength(10_000);
    expect(resolutions).toBe(10_000);
    results.forEach((result, i) => {
      const kind = kinds[i % kinds.length];
      const code = result.isError ? result.errorDetails?.code : 'OK';
      if (kind === 'slow') expect(['ABORTED', 'OK']).toContain(code);
      else expect(code, `${i} ${kind}`).toBe(expected[kind]);
      expect(result.isError ? result.output : 0).toBe(result.isError ? null : 0);
    });
    expect(
      results.filter((result, i) => kinds[i % kinds.length] === 'slow' && result.errorDetails?.code === 'ABORTED')
        .length,
    ).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
    const report = await o.shutdown({ timeoutMs: 10 });
    expect(report.abortedCalls).toBe(0);
  }, 60_000);
});
