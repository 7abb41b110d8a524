import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ITool, ToolAnnotations, ToolExecutionContext } from '../../src/index.js';
import { createFailuresProject, importFrom } from '../helpers/failures-project.js';
import type { TempProject } from '../helpers/temp-project.js';
import { callTool, makeTool, useOrchestrators } from './helpers.js';

/*
 * Retries from the contract: only a failure marked `retryable`, only a tool that may run twice
 * (read-only or idempotent), within one deadline and the turn's budget, approval asked once.
 */

const makeOrchestrator = useOrchestrators();

const RATE_LIMITED = { success: false, error: 'Rate limited', retryable: true } as const;

/** A tool answering `answers` in turn (the last one again once they run out), counting its runs. */
function scripted(
  answers: unknown[],
  options: { annotations?: ToolAnnotations; hasSideEffects?: boolean } = { annotations: { readOnlyHint: true } },
) {
  const runs: ToolExecutionContext[] = [];
  const tool = makeTool('lookup', {
    ...options,
    execute: async (_args: unknown, context: ToolExecutionContext) => {
      runs.push(context);
      const answer = answers[Math.min(runs.length - 1, answers.length - 1)];
      return typeof answer === 'function' ? answer(context) : answer;
    },
  });
  return { tool, runs };
}

const OK = { success: true, output: { found: true } };

afterEach(() => {
  vi.useRealTimers();
});

describe('retry: which failures of which tools', () => {
  it('runs a tool failing twice with a retryable failure, then succeeding, three times under attempts: 3', async () => {
    const { tool, runs } = scripted([RATE_LIMITED, RATE_LIMITED, OK]);
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 3 } });
    const result = await callTool(orchestrator, 'lookup');
    expect(runs).toHaveLength(3);
    expect(result).toMatchObject({ isError: false, output: { found: true }, attempts: 3 });
  });

  it('takes the policy from the call, which wins over the orchestrator’s', async () => {
    const { tool, runs } = scripted([RATE_LIMITED, RATE_LIMITED, OK]);
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 1 } });
    const result = await callTool(orchestrator, 'lookup', {}, { retry: { attempts: 3 } });
    expect(runs).toHaveLength(3);
    expect(result.attempts).toBe(3);
    const once = await callTool(makeOrchestrator({ tools: [scripted([RATE_LIMITED, OK]).tool] }), 'lookup');
    expect(once).toMatchObject({ isError: true, errorDetails: { code: 'TOOL_FAILED' } });
    expect(once).not.toHaveProperty('attempts'); // no policy: nothing was retried, nothing to count
  });

  it('answers the last failure, with the attempts, when every attempt fails', async () => {
    const { tool, runs } = scripted([RATE_LIMITED]);
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 4 } });
    const result = await callTool(orchestrator, 'lookup');
    expect(runs).toHaveLength(4);
    expect(result).toMatchObject({
      isError: true,
      attempts: 4,
      errorDetails: { code: 'TOOL_FAILED', message: "Tool 'lookup' failed: Rate limited" },
    });
  });

  it('runs a tool with side effects that is not idempotent once', async () => {
    const { tool, runs } = scripted([RATE_LIMITED, OK], { hasSideEffects: true });
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 3 }, allowSideEffects: true });
    const result = await callTool(orchestrator, 'lookup');
    expect(runs).toHaveLength(1);
    expect(result).toMatchObject({ isError: true, attempts: 1, errorDetails: { code: 'TOOL_FAILED' } });
  });

  it('never counts readOnlyHint for a tool with side effects; idempotentHint lets it retry', async () => {
    const claimsReadOnly = scripted([RATE_LIMITED, OK], { hasSideEffects: true, annotations: { readOnlyHint: true } });
    const orchestrator = makeOrchestrator({
      tools: [claimsReadOnly.tool],
      retry: { attempts: 3 },
      allowSideEffects: true,
    });
    expect((await callTool(orchestrator, 'lookup')).attempts).toBe(1);
    expect(claimsReadOnly.runs).toHaveLength(1);

    const idempotent = scripted([RATE_LIMITED, OK], { hasSideEffects: true, annotations: { idempotentHint: true } });
    const again = makeOrchestrator({ tools: [idempotent.tool], retry: { attempts: 3 }, allowSideEffects: true });
    expect(await callTool(again, 'lookup')).toMatchObject({ isError: false, attempts: 2 });
    expect(idempotent.runs).toHaveLength(2);
  });

  it('takes a tool without side effects as read-only unless its hints say otherwise', async () => {
    const plain = scripted([RATE_LIMITED, OK], {});
    expect(await callTool(makeOrchestrator({ tools: [plain.tool], retry: { attempts: 2 } }), 'lookup')).toMatchObject({
      isError: false,
      attempts: 2,
    });
    const writes = scripted([RATE_LIMITED, OK], { annotations: { readOnlyHint: false } });
    expect(
      (await callTool(makeOrchestrator({ tools: [writes.tool], retry: { attempts: 2 } }), 'lookup')).attempts,
    ).toBe(1);
    expect(writes.runs).toHaveLength(1);
  });

  it('never retries a failure not marked retryable, nor a throw', async () => {
    const plainFailure = scripted([{ success: false, error: 'Not found' }, OK]);
    const orchestrator = makeOrchestrator({ tools: [plainFailure.tool], retry: { attempts: 3 } });
    const failed = await callTool(orchestrator, 'lookup');
    expect(failed).toMatchObject({ isError: true, errorDetails: { code: 'TOOL_FAILED' } });
    expect(failed).not.toHaveProperty('attempts');
    expect(plainFailure.runs).toHaveLength(1);

    const throwing = scripted([
      () => {
        throw Object.assign(new Error('boom'), { retryable: true });
      },
      OK,
    ]);
    const thrown = await callTool(makeOrchestrator({ tools: [throwing.tool], retry: { attempts: 3 } }), 'lookup');
    expect(thrown.errorDetails?.code).toBe('TOOL_ERROR');
    expect(throwing.runs).toHaveLength(1);
  });
});

describe('retry: one call around its attempts', () => {
  it('asks the approval gate once for every attempt of the call', async () => {
    const { tool, runs } = scripted([RATE_LIMITED, RATE_LIMITED, OK]);
    const asked: string[] = [];
    const orchestrator = makeOrchestrator({
      tools: [tool],
      retry: { attempts: 3 },
      requireApproval: 'always',
      approvalGate: async ({ tool: asking }) => {
        asked.push(asking.name);
        return true;
      },
    });
    expect((await callTool(orchestrator, 'lookup')).attempts).toBe(3);
    expect(runs).toHaveLength(3);
    expect(asked).toEqual(['lookup']);
  });

  it('charges each attempt to the turn’s budget, and stops retrying when it is spent', async () => {
    const { tool, runs } = scripted([RATE_LIMITED]);
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 5 } });
    const budget = { remaining: 2 };
    const result = await callTool(orchestrator, 'lookup', {}, { callerTurn: { budget } });
    expect(runs).toHaveLength(2);
    expect(budget.remaining).toBe(0);
    expect(result).toMatchObject({ isError: true, attempts: 2, errorDetails: { code: 'TOOL_FAILED' } });
    expect((await callTool(orchestrator, 'lookup', {}, { callerTurn: { budget } })).errorDetails?.code).toBe(
      'BUDGET_EXCEEDED',
    );
  });

  it('has one deadline for all attempts: an attempt running at it is stopped, the call answered TIMEOUT once', async () => {
    const never = (context: ToolExecutionContext) =>
      new Promise((resolve) => context.signal?.addEventListener('abort', () => resolve(OK)));
    const { tool, runs } = scripted([RATE_LIMITED, never]);
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 3 } });
    const result = await callTool(orchestrator, 'lookup', {}, { timeoutMs: 100 });
    expect(result).toMatchObject({ isError: true, attempts: 2, errorDetails: { code: 'TIMEOUT' } });
    expect(runs).toHaveLength(2);
    expect(runs[1]!.signal?.aborted).toBe(true);
    expect(runs[0]!.signal).toBe(runs[1]!.signal); // the call's one signal, not one per attempt
  });

  it('does not wait for an attempt that could not start before the deadline: the failure is the answer', async () => {
    const { tool, runs } = scripted([RATE_LIMITED, OK]);
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 3, backoffMs: 60_000 } });
    const result = await callTool(orchestrator, 'lookup', {}, { timeoutMs: 30_000 });
    expect(result).toMatchObject({ isError: true, attempts: 1, errorDetails: { code: 'TOOL_FAILED' } });
    expect(runs).toHaveLength(1);
  });

  it('waits backoffMs before the second attempt and twice as long before each later one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { tool, runs } = scripted([RATE_LIMITED, RATE_LIMITED, OK]);
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 3, backoffMs: 100 } });
    const result = callTool(orchestrator, 'lookup');
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(runs).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(3);
    expect(await result).toMatchObject({ isError: false, attempts: 3 });
  });

  it('stops waiting when the caller aborts: ABORTED, no further attempt', async () => {
    const { tool, runs } = scripted([RATE_LIMITED, OK]);
    const orchestrator = makeOrchestrator({ tools: [tool], retry: { attempts: 3, backoffMs: 60_000 } });
    const controller = new AbortController();
    const result = callTool(orchestrator, 'lookup', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    controller.abort();
    expect(await result).toMatchObject({ isError: true, attempts: 1, errorDetails: { code: 'ABORTED' } });
    expect(runs).toHaveLength(1);
  });
});

describe('retry policies that are not one', () => {
  it('are refused by the orchestrator and, for a call, answered INVALID_REQUEST', async () => {
    expect(() => makeOrchestrator({ retry: { attempts: 0 } })).toThrow(
      'retry.attempts must be a whole number from 1 to 10; got 0.',
    );
    expect(() => makeOrchestrator({ retry: { attempts: 2, backoffMs: -1 } })).toThrow(
      'retry.backoffMs must be a number of milliseconds >= 0; got -1.',
    );
    const { tool, runs } = scripted([OK]);
    const result = await callTool(makeOrchestrator({ tools: [tool] }), 'lookup', {}, { retry: { attempts: 11 } });
    expect(result.errorDetails).toEqual({
      code: 'INVALID_REQUEST',
      message: "The call's retry.attempts must be a whole number from 1 to 10; got 11.",
    });
    expect(runs).toHaveLength(0);
  });
});

describe('retry: declared errors of a generated tool', () => {
  let project: TempProject;
  let tools: {
    QuoteTool: new (answers: unknown[]) => ITool & { runs: number };
    OrderTool: new () => ITool & { runs: number };
  };
  beforeAll(async () => {
    project = await createFailuresProject();
    tools = {
      ...(await importFrom<Pick<typeof tools, 'QuoteTool'>>(project, 'tools/quote.ts')),
      ...(await importFrom<Pick<typeof tools, 'OrderTool'>>(project, 'tools/order.ts')),
    };
  }, 120_000);
  afterAll(() => project?.dispose());

  const limited = { success: false, error: 'Rate limited', code: 'RATE_LIMITED', data: { retryAfterMs: 0 } };

  it('runs a read-only tool failing twice with a code declared retryable, then succeeding, three times', async () => {
    const quote = new tools.QuoteTool([limited, limited, { success: true, output: { price: 12 } }]);
    const orchestrator = makeOrchestrator({ tools: [quote], retry: { attempts: 3 } });
    const result = await callTool(orchestrator, 'quote', { symbol: 'ACME' });
    expect(quote.runs).toBe(3);
    expect(result).toMatchObject({ isError: false, output: { price: 12 }, attempts: 3 });
  });

  it('answers the last declared failure, retryable, once the attempts are spent', async () => {
    const quote = new tools.QuoteTool([limited]);
    const result = await callTool(makeOrchestrator({ tools: [quote], retry: { attempts: 2 } }), 'quote', {
      symbol: 'ACME',
    });
    expect(quote.runs).toBe(2);
    expect(result.errorDetails?.failure).toEqual({
      code: 'RATE_LIMITED',
      description: 'Too many lookups: wait `retryAfterMs` and call again.',
      data: { retryAfterMs: 0 },
      retryable: true,
    });
  });

  it('never retries a code not declared retryable, nor an undeclared code', async () => {
    const unknown = new tools.QuoteTool([{ success: false, error: 'No such symbol', code: 'UNKNOWN_SYMBOL' }]);
    await callTool(makeOrchestrator({ tools: [unknown], retry: { attempts: 3 } }), 'quote', { symbol: 'X' });
    expect(unknown.runs).toBe(1);
    const undeclared = new tools.QuoteTool([{ success: false, error: 'Busy', code: 'BUSY' }]);
    const result = await callTool(makeOrchestrator({ tools: [undeclared], retry: { attempts: 3 } }), 'quote', {
      symbol: 'X',
    });
    expect(undeclared.runs).toBe(1);
    expect(result.errorDetails?.code).toBe('OUTPUT_INVALID');
  });

  it('runs a tool with side effects that is not idempotent once, though its code is declared retryable', async () => {
    const order = new tools.OrderTool();
    const orchestrator = makeOrchestrator({ tools: [order], retry: { attempts: 3 }, allowSideEffects: true });
    const result = await callTool(orchestrator, 'order', { symbol: 'ACME' });
    expect(order.runs).toBe(1);
    expect(result).toMatchObject({
      isError: true,
      attempts: 1,
      errorDetails: { code: 'TOOL_FAILED', failure: { code: 'RATE_LIMITED', retryable: true } },
    });
  });
});
