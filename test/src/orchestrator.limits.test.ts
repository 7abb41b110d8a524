import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ToolOrchestrator,
  defineLazyTool,
  type ITool,
  type ToolCallResult,
  type ToolExecutionContext,
} from '../../src/index.js';
import { MAX_COPY_DEPTH } from '../../src/schema/walk.js';
import { callTool, deferred, hangingTool, makeTool } from './helpers.js';

const never = () => new Promise<never>(() => {});

/** A call's result once settled, or `undefined` while it is pending; counts how often `onCallEnd` ran. */
function track(promise: Promise<ToolCallResult>): { readonly result: ToolCallResult | undefined } {
  const state: { result: ToolCallResult | undefined } = { result: undefined };
  void promise.then((result) => (state.result = result));
  return state;
}

describe('the call deadline covers the whole call (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Starts a call of `tool` with `timeoutMs`, checks it is pending just before the deadline and TIMEOUT at it. */
  async function expectTimeoutAt(
    o: ToolOrchestrator,
    name: string,
    deadline: number,
    extra: Parameters<typeof callTool>[3] = {},
  ): Promise<ToolCallResult> {
    const call = track(callTool(o, name, {}, extra));
    await vi.advanceTimersByTimeAsync(deadline - 1);
    expect(call.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.result?.errorDetails?.code).toBe('TIMEOUT');
    return call.result!;
  }

  function counted(
    tools: ITool[],
    options: ConstructorParameters<typeof ToolOrchestrator>[0] = {},
  ): { o: ToolOrchestrator; ends: () => number } {
    let ends = 0;
    const o = new ToolOrchestrator({
      ...options,
      tools,
      hooks: { onCallEnd: () => void ends++ },
      shutdownTimeoutMs: 0,
    });
    return { o, ends: () => ends };
  }

  it('a refusal that never settles ends TIMEOUT at the request deadline, once', async () => {
    let signal: AbortSignal | undefined;
    const { o, ends } = counted([makeTool('t', { refusal: (_args, context) => ((signal = context.signal), never()) })]);
    const result = await expectTimeoutAt(o, 't', 100, { timeoutMs: 100 });
    expect(result.errorDetails).toEqual({
      code: 'TIMEOUT',
      message: "Tool 't' did not finish within 100 ms; the call was stopped.",
      details: { timeoutMs: 100 },
    });
    // The refusal was given the call's signal, and it fired at the deadline.
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as DOMException | undefined)?.name).toBe('TimeoutError');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ends()).toBe(1);
  });

  it("an approval gate that never settles ends TIMEOUT at the tool's own timeoutMs", async () => {
    const execute = vi.fn(async () => ({ success: true, output: {} }));
    const { o, ends } = counted([makeTool('w', { hasSideEffects: true, timeoutMs: 250, execute })], {
      approvalGate: never,
    });
    await expectTimeoutAt(o, 'w', 250);
    expect(execute).not.toHaveBeenCalled();
    expect(ends()).toBe(1);
  });

  it('a lazy load that hangs ends TIMEOUT at the orchestrator default', async () => {
    const { o, ends } = counted(
      [
        defineLazyTool(
          {
            name: 'lazy',
            metadata: () => ({ id: 'l', displayName: 'l', description: 'l', inputSchema: { type: 'object' } }),
          },
          never,
        ),
      ],
      {
        defaultTimeoutMs: 300,
      },
    );
    await expectTimeoutAt(o, 'lazy', 300);
    expect(ends()).toBe(1);
  });

  it("a lazy tool's own timeoutMs, known once loaded, counts from the start of the call", async () => {
    const loaded = deferred<ITool>();
    const { o } = counted(
      [
        defineLazyTool(
          { name: 'slow', metadata: () => ({ id: 's', displayName: 's', description: 's' }) },
          () => loaded.promise,
        ),
      ],
      { defaultTimeoutMs: 10_000 },
    );
    const call = track(callTool(o, 'slow'));
    await vi.advanceTimersByTimeAsync(30);
    loaded.resolve(hangingTool('slow', { timeoutMs: 50 }));
    await vi.advanceTimersByTimeAsync(19);
    expect(call.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.result?.errorDetails).toMatchObject({ code: 'TIMEOUT', details: { timeoutMs: 50 } });
  });

  it('a lazy tool loaded past its own timeout ends TIMEOUT right after the load', async () => {
    const loaded = deferred<ITool>();
    const { o } = counted([
      defineLazyTool(
        { name: 'slow', metadata: () => ({ id: 's', displayName: 's', description: 's' }) },
        () => loaded.promise,
      ),
    ]);
    const call = track(callTool(o, 'slow'));
    await vi.advanceTimersByTimeAsync(80);
    const execute = vi.fn(async () => ({ success: true, output: {} }));
    loaded.resolve(makeTool('slow', { timeoutMs: 50, execute }));
    await vi.advanceTimersByTimeAsync(0);
    expect(call.result?.errorDetails?.code).toBe('TIMEOUT');
    expect(execute).not.toHaveBeenCalled();
  });

  it('the request timeout wins over a lazy tool’s own', async () => {
    const { o } = counted([
      defineLazyTool({ name: 'lazy', metadata: () => ({ id: 'l', displayName: 'l', description: 'l' }) }, async () =>
        hangingTool('lazy', { timeoutMs: 10 }),
      ),
    ]);
    const result = await expectTimeoutAt(o, 'lazy', 70, { timeoutMs: 70 });
    expect(result.errorDetails?.details).toEqual({ timeoutMs: 70 });
  });
});

describe('shutdown returns by its deadline', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("even when a tool's own shutdown never settles (reported, not awaited)", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const quick = vi.fn(async () => {});
    const o = new ToolOrchestrator({
      tools: [makeTool('stuck', { shutdown: never }), makeTool('quick', { shutdown: quick })],
    });
    let report: Awaited<ReturnType<ToolOrchestrator['shutdown']>> | undefined;
    void o.shutdown({ timeoutMs: 200 }).then((value) => (report = value));
    await vi.advanceTimersByTimeAsync(199);
    expect(report).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(report?.abortedCalls).toBe(0);
    expect(report?.errors.map(({ toolName, message }) => ({ toolName, message }))).toEqual([
      {
        toolName: 'stuck',
        message: "Tool 'stuck' did not finish shutting down within the 200 ms deadline; it was left running.",
      },
    ]);
    expect((report?.errors[0]?.error as { code?: string } | undefined)?.code).toBe('TIMEOUT');
    expect(quick).toHaveBeenCalledTimes(1);
  });

  it('one deadline for the calls in flight and the tool shutdowns together', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const o = new ToolOrchestrator({ tools: [hangingTool('hang', { shutdown: never })] });
    const call = track(callTool(o, 'hang'));
    let done = false;
    void o.shutdown({ timeoutMs: 100 }).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(call.result?.errorDetails?.code).toBe('ABORTED');
    // The tools get what is left (here nothing but one turn of the event loop).
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('a tool that gets one turn after an aborted call may still finish its shutdown', async () => {
    const o = new ToolOrchestrator({ tools: [hangingTool('hang', { shutdown: async () => {} })] });
    void callTool(o, 'hang');
    const report = await o.shutdown({ timeoutMs: 5 });
    expect(report).toEqual({ abortedCalls: 1, errors: [] });
  });

  it('a shutdown that throws or rejects a hostile value is reported with a total description', async () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const o = new ToolOrchestrator({
      tools: [
        makeTool('sync', {
          shutdown: () => {
            throw revoked.proxy;
          },
        }),
        makeTool('async', {
          shutdown: async () => {
            throw revoked.proxy;
          },
        }),
      ],
    });
    const report = await o.shutdown({ timeoutMs: 50 });
    expect(report.errors.map(({ toolName, message }) => `${toolName}: ${message}`).sort()).toEqual([
      'async: unprintable value',
      'sync: unprintable value',
    ]);
  });
});

describe('JSON-string arguments get the depth limit of object arguments', () => {
  const tool = makeTool('echo', {
    inputSchema: { type: 'object' },
    execute: async () => ({ success: true, output: 'ran' }),
  });

  function nested(levels: number): Record<string, unknown> {
    let value: Record<string, unknown> = {};
    for (let level = 1; level < levels; level++) value = { a: value };
    return value;
  }

  it('a 100,000-deep string is INVALID_REQUEST, not a stack overflow', async () => {
    const o = new ToolOrchestrator({ tools: [tool] });
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const result = await callTool(o, 'echo', deep);
    expect(result.errorDetails).toEqual({
      code: 'INVALID_REQUEST',
      message: `Arguments for tool 'echo' are not JSON data: Value nests deeper than ${MAX_COPY_DEPTH} levels or contains a cycle.`,
    });
  });

  it('the same verdict for an object and its JSON text, at the limit and one past it', async () => {
    const o = new ToolOrchestrator({ tools: [tool] });
    for (const levels of [MAX_COPY_DEPTH, MAX_COPY_DEPTH + 1, MAX_COPY_DEPTH + 2, MAX_COPY_DEPTH + 3]) {
      const value = nested(levels);
      const asObject = await callTool(o, 'echo', value);
      const asText = await callTool(o, 'echo', JSON.stringify(value));
      expect(asText.errorDetails?.code ?? 'OK', `${levels} levels`).toBe(asObject.errorDetails?.code ?? 'OK');
    }
    expect((await callTool(o, 'echo', JSON.stringify(nested(MAX_COPY_DEPTH + 1)))).output).toBe('ran');
    expect((await callTool(o, 'echo', JSON.stringify(nested(MAX_COPY_DEPTH + 2)))).errorDetails?.code).toBe(
      'INVALID_REQUEST',
    );
  });

  it('brackets inside strings (with escaped quotes) do not count', async () => {
    const o = new ToolOrchestrator({ tools: [tool] });
    const text = JSON.stringify({ s: `"\\${'['.repeat(5_000)}`, t: '{'.repeat(5_000) });
    expect((await callTool(o, 'echo', text)).output).toBe('ran');
  });
});

describe('context signal', () => {
  it('the refusal, gate and tool all see the same signal when a timeout applies', async () => {
    const seen: Array<AbortSignal | undefined> = [];
    const o = new ToolOrchestrator({
      tools: [
        makeTool('t', {
          hasSideEffects: true,
          refusal: (_args, context: ToolExecutionContext) => void seen.push(context.signal),
          execute: async (_args, context) => (seen.push(context.signal), { success: true, output: {} }),
        }),
      ],
      approvalGate: async ({ context }) => (seen.push(context.signal), true),
      defaultTimeoutMs: 1_000,
    });
    expect((await callTool(o, 't')).isError).toBe(false);
    expect(seen).toHaveLength(3);
    expect(seen[0]).toBeInstanceOf(AbortSignal);
    expect(new Set(seen).size).toBe(1);
  });
});
