import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  ComposedTool,
  ToolOrchestrator,
  defineComposedTool,
  parseReference,
  resolveTemplate,
  type ApprovalGate,
  type ITool,
} from '../../src/index.js';
import { caller, callTool, deferred, hangingTool, makeTool, sleep, useOrchestrators } from './helpers.js';

const orchestrator = useOrchestrators();

const topicSchema = {
  type: 'object',
  properties: { topic: { type: 'string' }, limit: { type: 'integer', default: 2 } },
  required: ['topic'],
};

function searchTool(sideEffects: { count: number }): ITool {
  return makeTool('search', {
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string' }, limit: { type: 'integer' } },
      required: ['query'],
    },
    execute: async (args) => {
      sideEffects.count++;
      return {
        success: true,
        output: { body: `results for ${args.query}`, hits: [{ title: 'first' }], limit: args.limit },
      };
    },
  });
}

const summarizeTool = makeTool('summarize', {
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' }, style: { type: 'string' } },
    required: ['text'],
  },
  execute: async (args) => ({ success: true, output: { summary: `${args.style ?? 'plain'}: ${args.text}` } }),
});

describe('references', () => {
  it('parses whole-string references and nothing else', () => {
    expect(parseReference('$input')).toEqual({ step: -1, path: [] });
    expect(parseReference('$input.topic')).toEqual({ step: -1, path: ['topic'] });
    expect(parseReference('$steps.12.output.hits.0.title')).toEqual({ step: 12, path: ['hits', '0', 'title'] });
    for (const literal of [
      '$inputs',
      '$5.00',
      'see $input.topic',
      '$steps.01.output',
      '$steps.a.output',
      '$steps.0',
      'plain',
      '$input.',
    ]) {
      expect(parseReference(literal), literal).toBeUndefined();
    }
  });

  it('replaces references recursively, keeps literals and leaves out missing fields', () => {
    const scope = {
      input: { topic: 'owls', tags: ['a'] },
      steps: [{ output: { body: 'text', hits: [{ title: 'T' }] } }],
    };
    expect(
      resolveTemplate(
        {
          query: '$input.topic',
          body: '$steps.0.output.body',
          first: '$steps.0.output.hits.0.title',
          price: '$5.00',
          n: 3,
          list: ['$input.tags', 'x'],
          nested: { all: '$input' },
          missing: '$input.nope',
          proto: '$input.__proto__',
          ctor: '$input.constructor',
        },
        scope,
      ),
    ).toEqual({
      query: 'owls',
      body: 'text',
      first: 'T',
      price: '$5.00',
      n: 3,
      list: [['a'], 'x'],
      nested: { all: scope.input },
    });
  });
});

describe('ComposedTool', () => {
  it('runs each step through the orchestrator and answers the last step’s output', async () => {
    const sideEffects = { count: 0 };
    const composed = defineComposedTool<{ topic: string; limit?: number }, { summary: string }>({
      name: 'research',
      description: 'Search then summarize.',
      inputSchema: topicSchema,
      steps: [
        { tool: 'search', arguments: { query: '$input.topic', limit: '$input.limit' } },
        { tool: 'summarize', arguments: { text: '$steps.0.output.body', style: 'short' } },
      ],
    });
    expectTypeOf(composed).toEqualTypeOf<ComposedTool<{ topic: string; limit?: number }, { summary: string }>>();
    const o = orchestrator({ tools: [searchTool(sideEffects), summarizeTool, composed] });
    const result = await callTool(o, 'research', { topic: 'owls' });
    expect(result).toMatchObject({ isError: false, output: { summary: 'short: results for owls' } });
    expect(sideEffects.count).toBe(1);
    expect(composed.id).toBe('composed:research');
  });

  it('answers an output template when one is given', async () => {
    const sideEffects = { count: 0 };
    const composed = new ComposedTool({
      name: 'research',
      description: 'd',
      inputSchema: topicSchema,
      steps: [
        { tool: 'search', arguments: { query: '$input.topic' } },
        { tool: 'summarize', arguments: { text: '$steps.0.output.hits.0.title' } },
      ],
      output: { topic: '$input.topic', summary: '$steps.1.output.summary', limit: '$steps.0.output.limit' },
    });
    const o = orchestrator({ tools: [searchTool(sideEffects), summarizeTool, composed] });
    expect((await callTool(o, 'research', { topic: 'owls', limit: '5' })).output).toEqual({
      topic: 'owls',
      summary: 'plain: first',
    });
  });

  it('STEP_FAILED when the second step needs a capability the caller lacks; the first step ran exactly once', async () => {
    const sideEffects = { count: 0 };
    const privileged = makeTool('publish', { requiredCapabilities: ['cap:publish'] });
    const composed = new ComposedTool({
      name: 'research_and_publish',
      description: 'd',
      inputSchema: topicSchema,
      steps: [
        { tool: 'search', arguments: { query: '$input.topic' } },
        { tool: 'publish', arguments: { text: '$steps.0.output.body' } },
      ],
    });
    const o = orchestrator({ tools: [searchTool(sideEffects), privileged, composed] });
    const result = await callTool(o, 'research_and_publish', { topic: 'owls' }, { personaCapabilities: ['cap:other'] });
    expect(result.output).toBeNull();
    expect(result.errorDetails).toEqual({
      code: 'STEP_FAILED',
      message:
        "Step 1 ('publish') of composed tool 'research_and_publish' failed with PERMISSION_DENIED: Tool 'publish' needs capabilities the caller lacks: cap:publish.",
      details: {
        step: 1,
        code: 'PERMISSION_DENIED',
        message: "Tool 'publish' needs capabilities the caller lacks: cap:publish.",
      },
    });
    expect(sideEffects.count).toBe(1);
    // With the capability, the same composed call succeeds.
    expect(
      (await callTool(o, 'research_and_publish', { topic: 'owls' }, { personaCapabilities: ['cap:publish'] })).isError,
    ).toBe(false);
    expect(sideEffects.count).toBe(2);
  });

  it('shares the turn’s budget with its steps', async () => {
    const sideEffects = { count: 0 };
    const composed = new ComposedTool({
      name: 'twice',
      description: 'd',
      inputSchema: topicSchema,
      steps: [
        { tool: 'search', arguments: { query: '$input.topic' } },
        { tool: 'search', arguments: { query: 'again' } },
      ],
    });
    const o = orchestrator({ tools: [searchTool(sideEffects), composed] });
    const callerTurn = { budget: { remaining: 2 } };
    const result = await callTool(o, 'twice', { topic: 'x' }, { callerTurn });
    expect(result.errorDetails?.details).toMatchObject({ step: 1, code: 'BUDGET_EXCEEDED' });
    expect(sideEffects.count).toBe(1);
    expect(callerTurn.budget.remaining).toBe(0);
  });

  it('applies a step’s own timeout', async () => {
    const composed = new ComposedTool({
      name: 'slow',
      description: 'd',
      inputSchema: { type: 'object' },
      steps: [{ tool: 'hang', timeoutMs: 30 }],
    });
    const o = orchestrator({ tools: [hangingTool('hang'), composed] });
    const started = performance.now();
    const result = await callTool(o, 'slow');
    expect(result.errorDetails?.details).toMatchObject({ step: 0, code: 'TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('passes the composed call’s stop to the running step', async () => {
    let stepSignal: AbortSignal | undefined;
    const started = deferred();
    const composed = new ComposedTool({
      name: 'c',
      description: 'd',
      inputSchema: { type: 'object' },
      steps: [{ tool: 'hang' }],
    });
    const o = orchestrator({
      tools: [
        hangingTool('hang', {
          execute: (_args, context) => ((stepSignal = context.signal), started.resolve(), new Promise(() => {})),
        }),
        composed,
      ],
    });
    const controller = new AbortController();
    const pending = callTool(o, 'c', {}, { signal: controller.signal });
    await started.promise;
    controller.abort();
    expect((await pending).errorDetails?.code).toBe('ABORTED');
    expect(stepSignal?.aborted).toBe(true);
  });

  it('a step stopped while its approval is pending never starts; a step stopped earlier is not even asked', async () => {
    const gateCalls: string[] = [];
    const answer = deferred<boolean>();
    const controller = new AbortController();
    const writes = vi.fn(async () => ({ success: true, output: 'written' }));
    const gate: ApprovalGate = (request) => {
      gateCalls.push(request.tool.name);
      return answer.promise;
    };
    const composed = new ComposedTool({
      name: 'c',
      description: 'd',
      inputSchema: { type: 'object' },
      steps: [{ tool: 'write' }, { tool: 'write' }],
    });
    const o = orchestrator({
      tools: [makeTool('write', { hasSideEffects: true, execute: writes }), composed],
      approvalGate: gate,
    });
    const pending = callTool(o, 'c', {}, { signal: controller.signal });
    await sleep(5);
    expect(gateCalls).toEqual(['write']);
    controller.abort();
    answer.resolve(true);
    expect((await pending).errorDetails?.code).toBe('ABORTED');
    await sleep(5);
    expect(writes).not.toHaveBeenCalled();
    expect(gateCalls).toEqual(['write']);
  });

  it('rejects definitions that refer to steps that have not run', () => {
    const base = { name: 'c', description: 'd', inputSchema: { type: 'object' } };
    expect(() => new ComposedTool({ ...base, steps: [] })).toThrow(expect.objectContaining({ code: 'INVALID_TOOL' }));
    expect(() => new ComposedTool({ ...base, steps: [{ tool: 'a', arguments: { x: '$steps.0.output' } }] })).toThrow(
      /has not run yet/,
    );
    expect(() => new ComposedTool({ ...base, steps: [{ tool: 'a' }], output: '$steps.1.output' })).toThrow(
      /does not exist/,
    );
    expect(() => new ComposedTool({ ...base, steps: [{ tool: '' }] })).toThrow(/needs a 'tool' name/);
  });

  it('fails when not attached, and belongs to one orchestrator', async () => {
    const composed = new ComposedTool({
      name: 'c',
      description: 'd',
      inputSchema: { type: 'object' },
      steps: [{ tool: 'a' }],
    });
    expect(await composed.execute({}, { ...caller })).toMatchObject({
      success: false,
      error: expect.stringMatching(/not attached/),
    });
    orchestrator({ tools: [composed] });
    expect(() => orchestrator({ tools: [composed] })).toThrow(expect.objectContaining({ code: 'INVALID_TOOL' }));
  });

  it('an ordinary tool failure stays TOOL_FAILED even with a step number in its details', async () => {
    const o = orchestrator({
      tools: [makeTool('t', { execute: async () => ({ success: false, error: 'e', details: { step: 1 } }) })],
    });
    expect((await callTool(o, 't')).errorDetails?.code).toBe('TOOL_FAILED');
  });
});

describe('run-time nesting limit', () => {
  const looseInput = { type: 'object' };
  const composedCalling = (name: string, next: string) =>
    defineComposedTool({
      name,
      description: `${name} calls ${next}`,
      inputSchema: looseInput,
      steps: [{ tool: next }],
    });

  it('a composed tool that calls itself ends COMPOSITION_TOO_DEEP, naming the cycle, instead of a stack overflow', async () => {
    let ends = 0;
    const o = orchestrator({ tools: [composedCalling('loop', 'loop')], hooks: { onCallEnd: () => void ends++ } });
    const result = await callTool(o, 'loop');
    expect(result.isError).toBe(true);
    expect(result.errorDetails?.code).toBe('COMPOSITION_TOO_DEEP');
    expect(result.errorDetails?.message).toBe(
      "Composed tools nest deeper than 32 levels (loop → loop → loop → loop → … → loop → loop → loop): composed tool 'loop' reaches itself through its steps (loop → loop); remove the cycle.",
    );
    expect(result.errorDetails?.details).toEqual({ limit: 32, chain: Array.from({ length: 33 }, () => 'loop') });
    // Every nested call was answered once: the outer one and the 32 below it.
    expect(ends).toBe(33);
    expect((await o.shutdown()).abortedCalls).toBe(0);
  });

  it('a → b → a: the cycle is named', async () => {
    const o = orchestrator({ tools: [composedCalling('a', 'b'), composedCalling('b', 'a')] });
    const result = await callTool(o, 'a');
    expect(result.errorDetails?.code).toBe('COMPOSITION_TOO_DEEP');
    expect(result.errorDetails?.message).toContain("composed tool 'a' reaches itself through its steps (a → b → a)");
  });

  it('a cycle reached through an asynchronous step ends too (it would never overflow the stack: it would run forever)', async () => {
    const slowStart = makeTool('pause', { execute: async () => (await sleep(0), { success: true, output: {} }) });
    const looping = defineComposedTool({
      name: 'again',
      description: 'pause, then again',
      inputSchema: looseInput,
      steps: [{ tool: 'pause' }, { tool: 'again' }],
    });
    const o = orchestrator({ tools: [slowStart, looping] });
    const result = await callTool(o, 'again');
    expect(result.errorDetails?.code).toBe('COMPOSITION_TOO_DEEP');
    expect(result.errorDetails?.details?.chain).toHaveLength(33);
  });

  it('a chain of distinct composed tools: 20 deep runs, 40 deep ends COMPOSITION_TOO_DEEP, unless the limit is raised', async () => {
    const chain = (length: number) => [
      ...Array.from({ length }, (_, index) =>
        composedCalling(`c${index}`, index === length - 1 ? 'leaf' : `c${index + 1}`),
      ),
      makeTool('leaf', { execute: async () => ({ success: true, output: 'leaf ran' }) }),
    ];
    const short = await callTool(orchestrator({ tools: chain(20) }), 'c0');
    expect(short).toMatchObject({ isError: false, output: 'leaf ran' });

    const long = await callTool(orchestrator({ tools: chain(40) }), 'c0');
    expect(long.errorDetails?.code).toBe('COMPOSITION_TOO_DEEP');
    expect(long.errorDetails?.message).toBe(
      'Composed tools nest deeper than 32 levels (c0 → c1 → c2 → c3 → … → c30 → c31 → c32): shorten the chain or raise the maxCompositionDepth option.',
    );

    const raised = await callTool(orchestrator({ tools: chain(40), maxCompositionDepth: 50 }), 'c0');
    expect(raised).toMatchObject({ isError: false, output: 'leaf ran' });
  });

  it('rejects a maxCompositionDepth that is not a positive integer', () => {
    expect(() => new ToolOrchestrator({ maxCompositionDepth: 0 })).toThrow(
      /maxCompositionDepth must be a positive integer; got 0/,
    );
  });
});
