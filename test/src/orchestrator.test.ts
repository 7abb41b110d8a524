import { describe, expect, it, vi } from 'vitest';
import {
  ToolOrchestrator,
  ToolsmithError,
  type ApprovalGate,
  type CallEndEvent,
  type CallStartEvent,
  type ToolExecutionContext,
} from '../../src/index.js';
import { OrchestratorHost } from '../../src/orchestrator.js';
import { PipelineCall } from '../../src/pipeline/call.js';
import { caller, callTool, deferred, hangingTool, makeTool, sleep, useOrchestrators } from './helpers.js';

const orchestrator = useOrchestrators();

const countSchema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    unit: { type: 'string', default: 'm' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['count'],
  additionalProperties: false,
};

describe('processToolCall: a successful call', () => {
  it('answers the output with toolCallId and toolName', async () => {
    const o = orchestrator({ tools: [makeTool('echo')] });
    const result = await o.processToolCall({
      ...caller,
      toolCallRequest: { id: 'c1', name: 'echo', arguments: { text: 'hi' } },
    });
    expect(result).toEqual({ toolCallId: 'c1', toolName: 'echo', output: { echoed: { text: 'hi' } }, isError: false });
  });

  it('accepts arguments as a JSON string of an object', async () => {
    const o = orchestrator({ tools: [makeTool('echo')] });
    expect((await callTool(o, 'echo', '{"text":"json"}')).output).toEqual({ echoed: { text: 'json' } });
  });

  it('coerces and fills defaults on a copy: the caller’s object is unchanged', async () => {
    let seen: unknown;
    const o = orchestrator({
      tools: [
        makeTool('count', {
          inputSchema: countSchema,
          execute: async (args) => ((seen = args), { success: true, output: args }),
        }),
      ],
    });
    const args = { count: '3', tags: ['a'] };
    const result = await callTool(o, 'count', args);
    expect(result.output).toEqual({ count: 3, unit: 'm', tags: ['a'] });
    expect(seen).toEqual({ count: 3, unit: 'm', tags: ['a'] });
    expect(args).toEqual({ count: '3', tags: ['a'] });
    expect(seen).not.toBe(args);
    expect((seen as { tags: unknown }).tags).not.toBe(args.tags);
  });

  it('removes null for optional properties (OpenAI strict mode) so defaults apply', async () => {
    const o = orchestrator({
      tools: [
        makeTool('count', { inputSchema: countSchema, execute: async (args) => ({ success: true, output: args }) }),
      ],
    });
    const result = await callTool(o, 'count', '{"count": 2, "unit": null, "tags": null}');
    expect(result.output).toEqual({ count: 2, unit: 'm' });
  });

  it('gives the tool a context with a generated correlationId, the caller and the turn', async () => {
    let context: ToolExecutionContext | undefined;
    const o = orchestrator({
      tools: [makeTool('ctx', { execute: async (_args, c) => ((context = c), { success: true, output: 1 }) })],
    });
    const callerTurn = { budget: { remaining: 5 } };
    await callTool(o, 'ctx', {}, { sessionData: { s: 1 }, personaCapabilities: ['cap:a'], callerTurn });
    expect(context).toMatchObject({
      gmiId: 'gmi-1',
      personaId: 'persona-1',
      userContext: { userId: 'user-1' },
      sessionData: { s: 1 },
      personaCapabilities: ['cap:a'],
      callerTurn,
    });
    const generated = context?.correlationId;
    expect(generated).toMatch(/^[0-9a-f-]{36}-[0-9a-z]+$/);
    await callTool(o, 'ctx');
    expect(context?.correlationId).toMatch(/^[0-9a-f-]{36}-[0-9a-z]+$/);
    expect(context?.correlationId).not.toBe(generated);
    await callTool(o, 'ctx', {}, { correlationId: 'corr-1' });
    expect(context?.correlationId).toBe('corr-1');
  });

  it('answers output: null when a successful tool gives no output', async () => {
    const o = orchestrator({ tools: [makeTool('nothing', { execute: async () => ({ success: true }) })] });
    expect(await callTool(o, 'nothing')).toMatchObject({ output: null, isError: false });
  });
});

describe('processToolCall: one code per failure, in order', () => {
  it('SHUTTING_DOWN for every call made after shutdown() was called, checked before the lookup', async () => {
    const o = orchestrator({ tools: [makeTool('echo')] });
    const shutdown = o.shutdown();
    const during = await callTool(o, 'echo');
    await shutdown;
    const after = await callTool(o, 'missing');
    for (const result of [during, after]) {
      expect(result.isError).toBe(true);
      expect(result.output).toBeNull();
      expect(result.errorDetails?.code).toBe('SHUTTING_DOWN');
    }
  });

  it('INVALID_REQUEST for a missing name or arguments that are not an object (nor a JSON string of one)', async () => {
    const o = orchestrator({ tools: [makeTool('echo')] });
    const bad: unknown[] = [[1, 2], 5, null, undefined, 'not json', '[1,2]', '"text"', 'null', ''];
    for (const args of bad) {
      const result = await o.processToolCall({
        ...caller,
        toolCallRequest: { id: 'bad', name: 'echo', arguments: args as never },
      });
      expect(result.errorDetails?.code, JSON.stringify(args)).toBe('INVALID_REQUEST');
      expect(result.errorDetails?.message).toContain("tool 'echo'");
    }
    const noName = await o.processToolCall({ ...caller, toolCallRequest: { id: 'x', arguments: {} } as never });
    expect(noName).toMatchObject({
      toolCallId: 'x',
      output: null,
      isError: true,
      errorDetails: { code: 'INVALID_REQUEST' },
    });
    const noRequest = await o.processToolCall({ ...caller } as never);
    expect(noRequest.errorDetails?.code).toBe('INVALID_REQUEST');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect((await callTool(o, 'echo', cyclic)).errorDetails?.code).toBe('INVALID_REQUEST');
  });

  it('TOOL_NOT_FOUND lists the nearest registered names; case and spaces count', async () => {
    const o = orchestrator({ tools: [makeTool('memory_read'), makeTool('memory_write'), makeTool('calculator')] });
    const result = await callTool(o, 'memory_raed');
    expect(result.errorDetails).toEqual({
      code: 'TOOL_NOT_FOUND',
      message:
        "Tool 'memory_raed' not found. Nearest registered: memory_read, memory_write, calculator. Names match exactly (case and spaces count).",
    });
    expect((await callTool(o, 'Calculator')).errorDetails?.code).toBe('TOOL_NOT_FOUND');
    expect((await callTool(o, ' calculator ')).errorDetails?.code).toBe('TOOL_NOT_FOUND');
    expect((await callTool(o, 'calculator')).isError).toBe(false);
  });

  it('ABORTED when the signal already fired: nothing starts, not even the refusal', async () => {
    const execute = vi.fn(async () => ({ success: true }));
    const refusal = vi.fn(() => undefined);
    const o = orchestrator({ tools: [makeTool('t', { execute, refusal })] });
    const result = await callTool(o, 't', {}, { signal: AbortSignal.abort() });
    expect(result.errorDetails?.code).toBe('ABORTED');
    expect(execute).not.toHaveBeenCalled();
    expect(refusal).not.toHaveBeenCalled();
  });

  it('REFUSED carries the refusal’s error and details, and wins over approval: the gate is never called', async () => {
    const gate = vi.fn<ApprovalGate>(async () => true);
    const execute = vi.fn(async () => ({ success: true }));
    const tool = makeTool('delete_all', {
      hasSideEffects: true,
      execute,
      refusal: (args: Record<string, unknown>) =>
        args.confirm === true
          ? undefined
          : { success: false, error: 'confirm must be true', details: { hint: 'pass confirm: true', stack: 'secret' } },
    });
    const o = orchestrator({ tools: [tool], approvalGate: gate });
    const result = await callTool(o, 'delete_all', { confirm: false });
    expect(result.errorDetails).toEqual({
      code: 'REFUSED',
      message: "Tool 'delete_all' refused the call: confirm must be true",
      details: { hint: 'pass confirm: true' },
    });
    expect(gate).not.toHaveBeenCalled();
    expect(execute).not.toHaveBeenCalled();
    expect((await callTool(o, 'delete_all', { confirm: true })).isError).toBe(false);
    expect(gate).toHaveBeenCalledTimes(1);
  });

  it('REFUSED also from an async refusal, checked before permissions', async () => {
    const o = orchestrator({
      tools: [
        makeTool('t', { requiredCapabilities: ['cap:x'], refusal: async () => ({ success: false, error: 'no' }) }),
      ],
    });
    expect((await callTool(o, 't')).errorDetails?.code).toBe('REFUSED');
  });

  it('PERMISSION_DENIED lists the missing capabilities; capabilities are exact strings', async () => {
    const execute = vi.fn(async () => ({ success: true, output: 'ok' }));
    const o = orchestrator({
      tools: [makeTool('read_file', { requiredCapabilities: ['capability:filesystem:read', 'cap:b'], execute })],
    });
    const denied = await callTool(o, 'read_file', {}, { personaCapabilities: ['cap:b', 'Capability:Filesystem:Read'] });
    expect(denied.errorDetails).toEqual({
      code: 'PERMISSION_DENIED',
      message: "Tool 'read_file' needs capabilities the caller lacks: capability:filesystem:read.",
      details: { missing: ['capability:filesystem:read'] },
    });
    expect((await callTool(o, 'read_file', {}, { personaCapabilities: undefined })).errorDetails?.details).toEqual({
      missing: ['capability:filesystem:read', 'cap:b'],
    });
    expect(execute).not.toHaveBeenCalled();
    const allowed = await callTool(
      o,
      'read_file',
      {},
      { personaCapabilities: ['capability:filesystem:read', 'cap:b'] },
    );
    expect(allowed.output).toBe('ok');
  });

  it('TOOL_DISABLED for tools disabled by configuration (by name or id)', async () => {
    const execute = vi.fn(async () => ({ success: true }));
    const o = orchestrator({
      tools: [makeTool('a', { execute }), makeTool('b', { id: 'b-id', execute })],
      disabledTools: ['a', 'b-id'],
    });
    expect((await callTool(o, 'a')).errorDetails).toEqual({
      code: 'TOOL_DISABLED',
      message: "Tool 'a' is disabled by configuration.",
    });
    expect((await callTool(o, 'b')).errorDetails?.code).toBe('TOOL_DISABLED');
    expect(execute).not.toHaveBeenCalled();
  });

  it('BUDGET_EXCEEDED once the turn’s budget is spent; the budget is shared by the turn', async () => {
    const o = orchestrator({ tools: [makeTool('a'), makeTool('b')] });
    const callerTurn = { budget: { remaining: 2 } };
    expect((await callTool(o, 'a', {}, { callerTurn })).isError).toBe(false);
    expect((await callTool(o, 'b', {}, { callerTurn })).isError).toBe(false);
    expect(callerTurn.budget.remaining).toBe(0);
    const third = await callTool(o, 'a', {}, { callerTurn });
    expect(third.errorDetails?.code).toBe('BUDGET_EXCEEDED');
    expect(callerTurn.budget.remaining).toBe(0);
    // A call failing before the budget step does not spend it.
    const turn = { budget: { remaining: 1 } };
    await callTool(o, 'missing', {}, { callerTurn: turn });
    expect(turn.budget.remaining).toBe(1);
  });

  it('SCHEMA_INVALID for a tool whose input schema does not compile: it registers but never runs', async () => {
    const execute = vi.fn(async () => ({ success: true }));
    const o = orchestrator({
      tools: [makeTool('typo', { inputSchema: { type: 'object', requried: ['x'] }, execute })],
    });
    const result = await callTool(o, 'typo', { x: 1 });
    expect(result.errorDetails?.code).toBe('SCHEMA_INVALID');
    expect(result.errorDetails?.message).toMatch(
      /^Tool 'typo' cannot be called: its input schema does not compile .*requried/,
    );
    expect(execute).not.toHaveBeenCalled();
  });

  it('INVALID_ARGUMENTS with JSON-pointer paths (the missing property included)', async () => {
    const execute = vi.fn(async () => ({ success: true }));
    const o = orchestrator({ tools: [makeTool('count', { inputSchema: countSchema, execute })] });
    const result = await callTool(o, 'count', { count: 'many', tags: [1, {}], extra: true });
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
    expect(result.errorDetails?.message).toMatch(/^Invalid arguments for tool 'count': /);
    const errors = result.errorDetails?.details?.errors as Array<{ path: string; keyword: string; message: string }>;
    expect(errors.map((error) => [error.path, error.keyword])).toEqual(
      expect.arrayContaining([
        ['/extra', 'additionalProperties'],
        ['/count', 'type'],
        ['/tags/1', 'type'],
      ]),
    );
    expect(errors.find((error) => error.path === '/count')?.message).toBe('/count must be integer');
    const missing = await callTool(o, 'count', {});
    expect(missing.errorDetails?.details?.errors).toEqual([
      {
        path: '/count',
        message: '/count is required',
        keyword: 'required',
        params: { missingProperty: 'count' },
        schemaPath: '#/required',
      },
    ]);
    expect(execute).not.toHaveBeenCalled();
  });

  it('INVALID_ARGUMENTS from the tool’s own validateArgs, after the schema', async () => {
    const validateArgs = vi.fn((args: Record<string, any>) =>
      args.count > 10
        ? { isValid: false, errors: [{ path: '/count', message: 'must be at most 10' }] }
        : { isValid: true },
    );
    const o = orchestrator({ tools: [makeTool('count', { inputSchema: countSchema, validateArgs })] });
    const result = await callTool(o, 'count', { count: '11' });
    expect(validateArgs).toHaveBeenCalledWith({ count: 11, unit: 'm' });
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
    expect(result.errorDetails?.details?.errors).toEqual([
      { path: '/count', message: '/count must be at most 10', keyword: 'validateArgs', params: {} },
    ]);
    expect((await callTool(o, 'count', { count: 3 })).isError).toBe(false);
  });

  it('APPROVAL_UNAVAILABLE when the policy is "always" and there is no gate', async () => {
    const execute = vi.fn(async () => ({ success: true }));
    const o = orchestrator({ tools: [makeTool('t', { execute })], requireApproval: 'always' });
    expect((await callTool(o, 't')).errorDetails).toEqual({
      code: 'APPROVAL_UNAVAILABLE',
      message: "Tool 't' needs approval but no approval gate is configured.",
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it('APPROVAL_REJECTED (false or { approved: false, reason }) and the gate sees the validated arguments', async () => {
    const execute = vi.fn(async () => ({ success: true }));
    const requests: unknown[] = [];
    const gate: ApprovalGate = async (request) => {
      requests.push(request.args);
      return request.args.count === 1 ? false : { approved: false, reason: 'too many' };
    };
    const o = orchestrator({
      tools: [makeTool('write', { inputSchema: countSchema, hasSideEffects: true, execute })],
      approvalGate: gate,
    });
    expect((await callTool(o, 'write', { count: '1' })).errorDetails).toEqual({
      code: 'APPROVAL_REJECTED',
      message: "The call to tool 'write' was not approved.",
    });
    expect((await callTool(o, 'write', { count: 2 })).errorDetails).toEqual({
      code: 'APPROVAL_REJECTED',
      message: "The call to tool 'write' was not approved: too many",
      details: { reason: 'too many' },
    });
    expect(requests).toEqual([
      { count: 1, unit: 'm' },
      { count: 2, unit: 'm' },
    ]);
    expect(execute).not.toHaveBeenCalled();
  });

  it('APPROVAL_FAILED when the gate throws or rejects', async () => {
    const execute = vi.fn(async () => ({ success: true }));
    const o = orchestrator({
      tools: [makeTool('write', { hasSideEffects: true, execute })],
      approvalGate: async () => Promise.reject(new Error('gate down')),
    });
    const result = await callTool(o, 'write');
    expect(result.errorDetails).toEqual({
      code: 'APPROVAL_FAILED',
      message: "The approval gate failed for tool 'write': gate down",
    });
    const throwing = orchestrator({
      tools: [makeTool('write', { hasSideEffects: true, execute })],
      approvalGate: () => {
        throw new Error('sync');
      },
    });
    expect((await callTool(throwing, 'write')).errorDetails?.code).toBe('APPROVAL_FAILED');
    expect(execute).not.toHaveBeenCalled();
  });

  it('asks for approval only when the policy says so; a turn’s gate wins over the orchestrator’s', async () => {
    const orchestratorGate = vi.fn<ApprovalGate>(async () => true);
    const turnGate = vi.fn<ApprovalGate>(async () => ({ approved: true }));
    const o = orchestrator({
      tools: [makeTool('read'), makeTool('write', { hasSideEffects: true })],
      approvalGate: orchestratorGate,
    });
    await callTool(o, 'read');
    expect(orchestratorGate).not.toHaveBeenCalled();
    await callTool(o, 'write');
    expect(orchestratorGate).toHaveBeenCalledTimes(1);
    expect((await callTool(o, 'write', {}, { callerTurn: { approvalGate: turnGate } })).isError).toBe(false);
    expect(turnGate).toHaveBeenCalledTimes(1);
    expect(orchestratorGate).toHaveBeenCalledTimes(1);

    const always = orchestrator({
      tools: [makeTool('read')],
      approvalGate: orchestratorGate,
      requireApproval: 'always',
    });
    await callTool(always, 'read');
    expect(orchestratorGate).toHaveBeenCalledTimes(2);
    const never = orchestrator({
      tools: [makeTool('write', { hasSideEffects: true })],
      approvalGate: orchestratorGate,
      requireApproval: 'never',
    });
    await callTool(never, 'write');
    expect(orchestratorGate).toHaveBeenCalledTimes(2);
    // Default policy without any gate: a side-effect tool is refused, unless allowSideEffects.
    const execute = vi.fn(async () => ({ success: true, output: {} }));
    const ungated = orchestrator({ tools: [makeTool('write', { hasSideEffects: true, execute })] });
    const refused = await callTool(ungated, 'write');
    expect(refused.errorDetails).toEqual({
      code: 'APPROVAL_REJECTED',
      message:
        "Tool 'write' has side effects and nothing approved the call: give the orchestrator an approvalGate (or the turn one), or set allowSideEffects: true to let such tools run unasked.",
      details: { reason: 'no-approval-gate' },
    });
    expect(execute).not.toHaveBeenCalled();
    expect((await callTool(ungated, 'read')).errorDetails?.code).toBe('TOOL_NOT_FOUND');
    const allowed = orchestrator({
      tools: [makeTool('write', { hasSideEffects: true, execute })],
      allowSideEffects: true,
    });
    expect((await callTool(allowed, 'write')).isError).toBe(false);
    expect(execute).toHaveBeenCalledTimes(1);
    // A gate, when there is one, is still asked with allowSideEffects.
    const gated = orchestrator({
      tools: [makeTool('write', { hasSideEffects: true, execute })],
      allowSideEffects: true,
      approvalGate: async () => false,
    });
    expect((await callTool(gated, 'write')).errorDetails?.code).toBe('APPROVAL_REJECTED');
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('ABORTED when the signal stops while approval is pending: the tool never starts, whatever the gate answers', async () => {
    const answer = deferred<boolean>();
    const gateCalled = deferred();
    const execute = vi.fn(async () => ({ success: true }));
    const o = orchestrator({
      tools: [makeTool('write', { hasSideEffects: true, execute })],
      approvalGate: () => (gateCalled.resolve(), answer.promise),
    });
    const controller = new AbortController();
    const pending = callTool(o, 'write', {}, { signal: controller.signal });
    await gateCalled.promise;
    controller.abort();
    const result = await pending;
    expect(result.errorDetails?.code).toBe('ABORTED');
    answer.resolve(true);
    await sleep(10);
    expect(execute).not.toHaveBeenCalled();
  });

  it('TIMEOUT at the deadline even if the tool ignores its signal', async () => {
    let toolSignal: AbortSignal | undefined;
    const o = orchestrator({
      tools: [
        hangingTool('hang', { execute: (_args, context) => ((toolSignal = context.signal), new Promise(() => {})) }),
      ],
    });
    const started = performance.now();
    const result = await callTool(o, 'hang', {}, { timeoutMs: 50 });
    const elapsed = performance.now() - started;
    expect(result.errorDetails).toEqual({
      code: 'TIMEOUT',
      message: "Tool 'hang' did not finish within 50 ms; the call was stopped.",
      details: { timeoutMs: 50 },
    });
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(1000);
    expect(toolSignal?.aborted).toBe(true);
    expect((toolSignal?.reason as DOMException | undefined)?.name).toBe('TimeoutError');
  });

  it('takes the timeout from the call, else the tool, else the orchestrator default', async () => {
    const o = orchestrator({
      tools: [hangingTool('own', { timeoutMs: 30 }), hangingTool('none')],
      defaultTimeoutMs: 60,
    });
    expect((await callTool(o, 'own')).errorDetails?.details).toEqual({ timeoutMs: 30 });
    expect((await callTool(o, 'none')).errorDetails?.details).toEqual({ timeoutMs: 60 });
    expect((await callTool(o, 'own', {}, { timeoutMs: 40 })).errorDetails?.details).toEqual({ timeoutMs: 40 });
  });

  it('gives no signal and starts no timer when neither a timeout nor a signal applies', async () => {
    let context: ToolExecutionContext | undefined;
    const o = orchestrator({
      tools: [makeTool('t', { execute: async (_args, c) => ((context = c), { success: true }) })],
    });
    await callTool(o, 't');
    expect(context?.signal).toBeUndefined();
    const signal = new AbortController().signal;
    await callTool(o, 't', {}, { signal });
    expect(context?.signal).toBe(signal);
  });

  it('ABORTED when the caller stops a running call; the tool’s signal fires', async () => {
    let toolSignal: AbortSignal | undefined;
    const started = deferred();
    const o = orchestrator({
      tools: [
        hangingTool('hang', {
          execute: (_args, c) => ((toolSignal = c.signal), started.resolve(), new Promise(() => {})),
        }),
      ],
    });
    const controller = new AbortController();
    const pending = callTool(o, 'hang', {}, { signal: controller.signal, timeoutMs: 10_000 });
    await started.promise;
    controller.abort(new Error('user pressed stop'));
    expect((await pending).errorDetails).toEqual({
      code: 'ABORTED',
      message: "The call to tool 'hang' was aborted by the caller.",
    });
    expect(toolSignal?.aborted).toBe(true);
    expect((toolSignal?.reason as Error | undefined)?.message).toBe('user pressed stop');
  });

  it('TOOL_FAILED carries the tool’s error and details (without a stack)', async () => {
    const o = orchestrator({
      tools: [
        makeTool('f', {
          execute: async () => ({ success: false, error: 'disk full', details: { free: 0, stack: 'Error: at x' } }),
        }),
      ],
    });
    expect(await callTool(o, 'f')).toMatchObject({
      output: null,
      isError: true,
      errorDetails: { code: 'TOOL_FAILED', message: "Tool 'f' failed: disk full", details: { free: 0 } },
    });
    expect(JSON.stringify(await callTool(o, 'f'))).not.toContain('at x');
  });

  it('TOOL_ERROR for a throw or a rejection: the message only; the stack goes to the hooks', async () => {
    const ends: CallEndEvent[] = [];
    const o = orchestrator({
      tools: [
        makeTool('throws', {
          execute: () => {
            throw new Error('sync boom');
          },
        }),
        makeTool('rejects', {
          execute: async () => {
            throw new TypeError('async boom');
          },
        }),
        makeTool('bad_result', { execute: async () => 42 as never }),
      ],
      hooks: { onCallEnd: (event) => ends.push(event) },
    });
    const thrown = await callTool(o, 'throws');
    expect(thrown.errorDetails).toEqual({ code: 'TOOL_ERROR', message: "Tool 'throws' threw: sync boom" });
    const rejected = await callTool(o, 'rejects');
    expect(rejected.errorDetails).toEqual({ code: 'TOOL_ERROR', message: "Tool 'rejects' threw: async boom" });
    expect(JSON.stringify([thrown, rejected])).not.toMatch(/\n\s+at /);
    expect((ends[1].error as Error).stack).toContain('async boom');
    expect((await callTool(o, 'bad_result')).errorDetails?.code).toBe('TOOL_ERROR');
  });

  it('TOOL_ERROR, not an unhandled rejection, for a result whose `then` cannot be read, also after a queue wait', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const trap = {
        get then(): never {
          throw new Error('no then for you');
        },
      };
      const o = orchestrator({
        maxConcurrency: 1,
        tools: [
          makeTool('trap', { execute: () => trap as never }),
          makeTool('slow', { execute: async () => (await sleep(30), { success: true, output: {} }) }),
        ],
      });
      expect((await callTool(o, 'trap')).errorDetails).toEqual({
        code: 'TOOL_ERROR',
        message: "Tool 'trap' threw: no then for you",
      });
      // The second call waits for the slot, then runs `execute` from the queue's continuation.
      const [, queued] = await Promise.all([callTool(o, 'slow'), callTool(o, 'trap')]);
      expect(queued.errorDetails?.code).toBe('TOOL_ERROR');
      await sleep(10);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('OUTPUT_INVALID for an output that fails its schema, or an output schema that does not compile', async () => {
    const o = orchestrator({
      tools: [
        makeTool('bad_output', {
          outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
          execute: async () => ({ success: true, output: { n: 'x' } }),
        }),
        makeTool('broken_schema', {
          outputSchema: { type: 'object', propertees: {} },
          execute: async () => ({ success: true, output: {} }),
        }),
        makeTool('coerced', {
          outputSchema: { type: 'object', properties: { n: { type: 'integer' }, d: { type: 'string', default: 'z' } } },
          execute: async () => ({ success: true, output: { n: '7' } }),
        }),
      ],
    });
    const bad = await callTool(o, 'bad_output');
    expect(bad).toMatchObject({ output: null, isError: true, errorDetails: { code: 'OUTPUT_INVALID' } });
    expect(bad.errorDetails?.details?.errors).toEqual([
      {
        path: '/n',
        message: '/n must be integer',
        keyword: 'type',
        params: { type: 'integer' },
        schemaPath: '#/properties/n/type',
      },
    ]);
    expect((await callTool(o, 'broken_schema')).errorDetails?.code).toBe('OUTPUT_INVALID');
    expect((await callTool(o, 'coerced')).output).toEqual({ n: 7, d: 'z' });
  });
});

describe('concurrency', () => {
  it('respects maxConcurrency under 1,000 concurrent calls', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const tool = makeTool('work', {
      execute: async (args) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await sleep(args.n % 3);
        inFlight--;
        return { success: true, output: args.n };
      },
    });
    const o = orchestrator({ tools: [tool], maxConcurrency: 7 });
    const results = await Promise.all(Array.from({ length: 1000 }, (_, n) => callTool(o, 'work', { n })));
    expect(results.map((result) => result.output)).toEqual(Array.from({ length: 1000 }, (_, n) => n));
    expect(maxInFlight).toBe(7);
  });

  it('QUEUE_FULL beyond maxQueue', async () => {
    const release = deferred();
    const o = orchestrator({
      tools: [makeTool('slow', { execute: async () => (await release.promise, { success: true, output: 'done' }) })],
      maxConcurrency: 1,
      maxQueue: 1,
    });
    const running = callTool(o, 'slow');
    const queued = callTool(o, 'slow');
    const rejected = await callTool(o, 'slow');
    expect(rejected.errorDetails?.code).toBe('QUEUE_FULL');
    release.resolve();
    expect((await running).output).toBe('done');
    expect((await queued).output).toBe('done');
  });

  it('an aborted queued call leaves the queue without running', async () => {
    const release = deferred();
    const execute = vi.fn(async () => (await release.promise, { success: true }));
    const o = orchestrator({ tools: [makeTool('slow', { execute })], maxConcurrency: 1, maxQueue: 1 });
    const running = callTool(o, 'slow');
    const controller = new AbortController();
    const queued = callTool(o, 'slow', {}, { signal: controller.signal });
    await sleep(5);
    controller.abort();
    expect((await queued).errorDetails?.code).toBe('ABORTED');
    const next = callTool(o, 'slow'); // the queue has room again
    release.resolve();
    expect((await running).isError).toBe(false);
    expect((await next).isError).toBe(false);
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('queued calls run in the order they came, a call stopped while queued passed over', async () => {
    const release = deferred();
    const ran: number[] = [];
    const execute = async (args: { n: number }) => {
      ran.push(args.n);
      if (args.n === 0) await release.promise;
      return { success: true, output: args.n };
    };
    const o = orchestrator({ tools: [makeTool('slow', { execute })], maxConcurrency: 1 });
    const controller = new AbortController();
    const calls = [0, 1, 2, 3].map((n) => callTool(o, 'slow', { n }, n === 2 ? { signal: controller.signal } : {}));
    await sleep(1);
    controller.abort();
    release.resolve();
    const results = await Promise.all(calls);
    expect(results.map((result) => result.errorDetails?.code ?? result.output)).toEqual([0, 1, 'ABORTED', 3]);
    expect(ran).toEqual([0, 1, 3]);
  });

  it('a call given a slot out of the queue holds none of the calls still queued behind it', () => {
    const host = new OrchestratorHost(undefined, { maxConcurrency: 1 });
    const [running, first, second] = [0, 1, 2].map(() => new PipelineCall(host));
    expect(host.acquireSlot(running!)).toBeUndefined();
    void host.acquireSlot(first!);
    void host.acquireSlot(second!);
    expect(first!.nextQueued).toBe(second);
    host.settle(running!);
    expect(first!.holdsSlot).toBe(true);
    expect(first!.nextQueued).toBeUndefined(); // else a long call would keep every later queued call alive
    expect(second!.queued).toBe(true);
  });

  it('a queued call times out at its deadline without running', async () => {
    const execute = vi.fn(() => new Promise<never>(() => {}));
    const o = orchestrator({ tools: [makeTool('hang', { execute })], maxConcurrency: 1 });
    void callTool(o, 'hang', {}, { timeoutMs: 5_000 });
    const queued = await callTool(o, 'hang', {}, { timeoutMs: 30 });
    expect(queued.errorDetails?.code).toBe('TIMEOUT');
    expect(execute).toHaveBeenCalledTimes(1);
  });
});

describe('registration', () => {
  it('ALREADY_REGISTERED for a taken name unless replace is asked for; a replaced tool is shut down', async () => {
    const shutdown = vi.fn(async () => {});
    const o = orchestrator({
      tools: [makeTool('t', { shutdown, execute: async () => ({ success: true, output: 'old' }) })],
    });
    expect(() => o.registerTool(makeTool('t'))).toThrow(ToolsmithError);
    try {
      o.registerTool(makeTool('t'));
    } catch (error) {
      expect((error as ToolsmithError).code).toBe('ALREADY_REGISTERED');
    }
    expect((await callTool(o, 't')).output).toBe('old');
    await o.registerTool(makeTool('t', { execute: async () => ({ success: true, output: 'new' }) }), { replace: true });
    expect(shutdown).toHaveBeenCalledTimes(1);
    expect((await callTool(o, 't')).output).toBe('new');
  });

  it('INVALID_TOOL for a malformed tool', () => {
    const o = orchestrator();
    expect(() => o.registerTool({ ...makeTool('x'), name: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL' }),
    );
    expect(() => o.registerTool({ ...makeTool('x'), name: ' x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL' }),
    );
    expect(() => o.registerTool({ ...makeTool('x'), execute: undefined as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL' }),
    );
  });

  it('a replaced tool finishes its in-flight calls before it is shut down', async () => {
    const release = deferred();
    const events: string[] = [];
    const old = makeTool('t', {
      execute: async () => (await release.promise, events.push('old call done'), { success: true, output: 'old' }),
      shutdown: async () => void events.push('old shut down'),
    });
    const o = orchestrator({ tools: [old] });
    const inFlight = callTool(o, 't');
    const replaced = o.registerTool(makeTool('t'), { replace: true });
    await sleep(5);
    expect(events).toEqual([]);
    release.resolve();
    await replaced;
    expect(events).toEqual(['old call done', 'old shut down']);
    expect((await inFlight).output).toBe('old');
  });

  it('unregisterTool waits for in-flight calls, then shuts the tool down', async () => {
    const release = deferred();
    const events: string[] = [];
    const o = orchestrator({
      tools: [
        makeTool('t', {
          execute: async () => (await release.promise, events.push('call done'), { success: true, output: 1 }),
          shutdown: async () => void events.push('shut down'),
        }),
      ],
    });
    const inFlight = callTool(o, 't');
    const unregistered = o.unregisterTool('t');
    expect((await callTool(o, 't')).errorDetails?.code).toBe('TOOL_NOT_FOUND');
    await sleep(5);
    expect(events).toEqual([]);
    release.resolve();
    expect(await unregistered).toBe(true);
    expect(events).toEqual(['call done', 'shut down']);
    expect((await inFlight).output).toBe(1);
    expect(await o.unregisterTool('t')).toBe(false);
  });
});

describe('shutdown', () => {
  it('resolves every in-flight call exactly once and calls each tool’s shutdown once', async () => {
    const quickShutdown = vi.fn(async () => {});
    const hangShutdown = vi.fn(async () => {
      throw new Error('cannot close');
    });
    const release = deferred();
    const o = new ToolOrchestrator({
      tools: [
        makeTool('quick', {
          execute: async () => (await release.promise, { success: true, output: 'q' }),
          shutdown: quickShutdown,
        }),
        hangingTool('hang', { shutdown: hangShutdown }),
      ],
      shutdownTimeoutMs: 100,
    });
    const settled: string[] = [];
    const calls = [callTool(o, 'quick'), callTool(o, 'hang'), callTool(o, 'quick'), callTool(o, 'hang')].map(
      (promise, index) => promise.then((result) => (settled.push(`${index}`), result)),
    );
    setTimeout(() => release.resolve(), 10);
    const started = performance.now();
    const report = await o.shutdown();
    expect(performance.now() - started).toBeLessThan(2000);
    const results = await Promise.all(calls);
    expect(results.map((result) => result.errorDetails?.code ?? result.output)).toEqual([
      'q',
      'ABORTED',
      'q',
      'ABORTED',
    ]);
    expect(settled.sort()).toEqual(['0', '1', '2', '3']);
    expect(report.abortedCalls).toBe(2);
    expect(report.errors).toEqual([{ toolName: 'hang', message: 'cannot close', error: expect.any(Error) }]);
    expect(quickShutdown).toHaveBeenCalledTimes(1);
    expect(hangShutdown).toHaveBeenCalledTimes(1);
    // Idempotent: the same report, no second shutdown of any tool.
    expect(await o.shutdown()).toBe(report);
    expect(quickShutdown).toHaveBeenCalledTimes(1);
    expect(o.listTools()).toEqual([]);
    expect(() => o.registerTool(makeTool('late'))).toThrow(expect.objectContaining({ code: 'SHUTTING_DOWN' }));
  });

  it('clears its deadline timers when the calls in flight settle before the deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const release = deferred();
      const o = new ToolOrchestrator({
        tools: [makeTool('quick', { execute: async () => (await release.promise, { success: true, output: 'q' }) })],
      });
      const call = callTool(o, 'quick');
      const shutdown = o.shutdown({ timeoutMs: 60_000 });
      release.resolve();
      expect((await call).output).toBe('q');
      expect(await shutdown).toEqual({ abortedCalls: 0, errors: [] });
      expect(vi.getTimerCount()).toBe(0); // neither the calls' deadline nor the tools' outlives the drain
    } finally {
      vi.useRealTimers();
    }
  });

  it('resolves an approval-pending call when shutdown aborts it; the tool never starts', async () => {
    const execute = vi.fn(async () => ({ success: true }));
    const o = new ToolOrchestrator({
      tools: [makeTool('w', { hasSideEffects: true, execute })],
      approvalGate: () => new Promise(() => {}),
      shutdownTimeoutMs: 20,
    });
    const pending = callTool(o, 'w');
    await sleep(1);
    await o.shutdown();
    expect((await pending).errorDetails).toEqual({
      code: 'ABORTED',
      message: "The call to tool 'w' was aborted because the orchestrator shut down.",
      details: { reason: 'shutdown' },
    });
    expect(execute).not.toHaveBeenCalled();
  });
});

describe('listTools', () => {
  it('offers only enabled tools the persona may call, with name, description and schemas', () => {
    const o = orchestrator({
      tools: [
        makeTool('open', { outputSchema: { type: 'string' } }),
        makeTool('secret', { requiredCapabilities: ['cap:secret'] }),
        makeTool('off'),
      ],
      disabledTools: ['off'],
    });
    expect(o.listTools({ personaCapabilities: [] }).map((tool) => tool.name)).toEqual(['open']);
    expect(o.listTools({ personaCapabilities: ['cap:secret'] }).map((tool) => tool.name)).toEqual(['open', 'secret']);
    expect(o.listTools().map((tool) => tool.name)).toEqual(['open', 'secret']);
    expect(o.listTools()[0]).toEqual({
      name: 'open',
      description: 'Test tool open.',
      inputSchema: makeTool('x').inputSchema,
      outputSchema: { type: 'string' },
    });
    expect(Object.keys(o.listTools()[1])).toEqual(['name', 'description', 'inputSchema']);
  });
});

describe('hooks', () => {
  it('report start and end with name, call id, correlationId, duration and code', async () => {
    const starts: CallStartEvent[] = [];
    const ends: CallEndEvent[] = [];
    const o = orchestrator({
      tools: [makeTool('ok'), makeTool('fail', { execute: async () => ({ success: false, error: 'no' }) })],
      hooks: { onCallStart: (event) => starts.push(event), onCallEnd: (event) => ends.push(event) },
    });
    await o.processToolCall({
      ...caller,
      correlationId: 'corr',
      toolCallRequest: { id: 'c1', name: 'ok', arguments: {} },
    });
    await o.processToolCall({ ...caller, toolCallRequest: { id: 'c2', name: 'fail', arguments: {} } });
    expect(starts).toEqual([
      { toolName: 'ok', toolCallId: 'c1', correlationId: 'corr' },
      { toolName: 'fail', toolCallId: 'c2', correlationId: expect.any(String) },
    ]);
    expect(ends[0]).toEqual({
      toolName: 'ok',
      toolCallId: 'c1',
      correlationId: 'corr',
      durationMs: expect.any(Number),
      isError: false,
    });
    expect(ends[1]).toMatchObject({ toolName: 'fail', toolCallId: 'c2', isError: true, code: 'TOOL_FAILED' });
    expect(ends[1].correlationId).toBe(starts[1].correlationId);
    expect(ends[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a throwing or rejecting hook changes nothing', async () => {
    const o = orchestrator({
      tools: [makeTool('ok')],
      hooks: {
        onCallStart: () => {
          throw new Error('hook');
        },
        onCallEnd: (async () => {
          throw new Error('async hook');
        }) as never,
      },
    });
    expect((await callTool(o, 'ok')).isError).toBe(false);
  });
});

describe('security', () => {
  it('arguments never pollute a prototype', async () => {
    let seen: Record<string, unknown> | undefined;
    const o = orchestrator({
      tools: [
        makeTool('t', { execute: async (args) => ((seen = args), { success: true, output: Object.keys(args) }) }),
      ],
    });
    const payloads = [
      '{"__proto__": {"polluted": true}}',
      '{"constructor": {"prototype": {"polluted": true}}}',
      JSON.parse('{"__proto__": {"polluted": true}, "nested": {"__proto__": {"polluted": true}}}'),
      { constructor: { prototype: { polluted: true } } },
    ];
    for (const payload of payloads) {
      const result = await callTool(o, 't', payload);
      expect(result.isError).toBe(false);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
      expect((seen as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('never echoes megabytes of input back in a message', async () => {
    const huge = 'x'.repeat(2_000_000);
    const o = orchestrator({
      tools: [
        makeTool('strict', { inputSchema: { type: 'object', additionalProperties: false } }),
        makeTool('fails', { execute: async () => ({ success: false, error: huge }) }),
        makeTool('throws', {
          execute: async () => {
            throw new Error(huge);
          },
        }),
      ],
    });
    const results = [
      await callTool(o, huge),
      await callTool(o, 'strict', `{"a": "${huge}`),
      await callTool(o, 'strict', { [huge]: 1 }),
      await callTool(o, 'fails'),
      await callTool(o, 'throws'),
    ];
    expect(results.map((result) => result.errorDetails?.code)).toEqual([
      'TOOL_NOT_FOUND',
      'INVALID_REQUEST',
      'INVALID_ARGUMENTS',
      'TOOL_FAILED',
      'TOOL_ERROR',
    ]);
    for (const result of results) {
      expect(result.errorDetails!.message.length).toBeLessThan(2_000);
      expect(JSON.stringify(result).length).toBeLessThan(10_000);
    }
  });
});
