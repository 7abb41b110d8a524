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

const topicSchema = { type: 'object', properties: { topic: { type: 'string' }, limit: { type: 'integer', default: 2 } }, required: ['topic'] };

function searchTool(sideEffects: { count: number }): ITool {
  return makeTool('search', {
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] },
    execute: async (args) => {
      sideEffects.count++;
      return { success: true, output: { body: `results for ${args.query}`, hits: [{ title: 'first' }], limit: args.limit } };
    },
  });
}

const summarizeTool = makeTool('summarize', {
  inputSchema: { type: 'object', properties: { text: { type: 'string' }, style: { type: 'string' } }, required: ['text'] },
  execute: async (args) => ({ success: true, output: { summary: `${args.style ?? 'plain'}: ${args.text}` } }),
});

describe('references', () => {
  it('parses whole-string references and nothing else', () => {
    expect(parseReference('$input')).toEqual({ step: -1, path: [] });
    expect(parseReference('$input.topic')).toEqual({ step: -1, path: ['topic'] });
    expect(parseReference('$steps.12.output.hits.0.title')).toEqual({ step: 12, path: ['hits', '0', 'title'] });
    for (const literal of ['$inputs', '$5.00', 'see $input.topic', '$steps.01.output', '$steps.a.output', '$steps.0', 'plain', '$input.']) {
      expect(parseReference(literal), literal).toBeUndefined();
    }
  });

  it('replaces references recursively, keeps literals and leaves out missing fields', () => {
    const scope = { input: { topic: 'owls', tags: ['a'] }, steps: [{ output: { body: 'text', hits: [{ title: 'T' }] } }] };
    expect(
      resolveTemplate(
        { query: '$input.topic', body: '$steps.0.output.body', first: '$steps.0.output.hits.0.title', price: '$5.00', n: 3, list: ['$input.tags', 'x'], nested: { all: '$input' }, missing: '$input.nope', proto: '$input.__proto__', ctor: '$input.constructor' },
        scope,
      ),
    ).toEqual({ query: 'owls', body: 'text', first: 'T', price: '$5.00', n: 3, list: [['a'], 'x'], nested: { all: scope.input } });
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
      steps: [{ tool: 'search', arguments: { query: '$input.topic' } }, { tool: 'summarize', arguments: { text: '$steps.0.output.hits.0.title' } }],
      output: { topic: '$input.topic', summary: '$steps.1.output.summary', limit: '$steps.0.output.limit' },
    });
    const o = orchestrator({ tools: [searchTool(sideEffects), summarizeTool, composed] });
    expect((await callTool(o, 'research', { topic: 'owls', limit: '5' })).output).toEqual({ topic: 'owls', summary: 'plain: first' });
  });

  it('STEP_FAILED when the second step needs a capability the caller lacks; the first step ran exactly once', async () => {
    const sideEffects = { count: 0 };
    const privileged = makeTool('publish', { requiredCapabilities: ['cap:publish'] });
    const composed = new ComposedTool({
      name: 'research_and_publish',
      description: 'd',
      inputSchema: topicSchema,
      steps: [{ tool: 'search', arguments: { query: '$input.topic' } }, { tool: 'publish', arguments: { text: '$steps.0.output.body' } }],
    });
    const o = orchestrator({ tools: [searchTool(sideEffects), privileged, composed] });
    const result = await callTool(o, 'research_and_publish', { topic: 'owls' }, { personaCapabilities: ['cap:other'] });
    expect(result.output).toBeNull();
    expect(result.errorDetails).toEqual({
      code: 'STEP_FAILED',
      message: "Step 1 ('publish') of composed tool 'research_and_publish' failed with PERMISSION_DENIED: Tool 'publish' needs capabilities the caller lacks: cap:publish.",
      details: { step: 1, code: 'PERMISSION_DENIED', message: "Tool 'publish' needs capabilities the caller lacks: cap:publish." },
    });
    expect(sideEffects.count).toBe(1);
    // With the capability, the same composed call succeeds.
    expect((await callTool(o, 'research_and_publish', { topic: 'owls' }, { personaCapabilities: ['cap:publish'] })).isError).toBe(false);
    expect(sideEffects.count).toBe(2);
  });

  it('shares the turn’s budget with its steps', async () => {
    const sideEffects = { count: 0 };
    const composed = new ComposedTool({
      name: 'twice',
      description: 'd',
      inputSchema: topicSchema,
      steps: [{ tool: 'search', arguments: { query: '$input.topic' } }, { tool: 'search', arguments: { query: 'again' } }],
    });
    const o = orchestrator({ tools: [searchTool(sideEffects), composed] });
    const callerTurn = { budget: { remaining: 2 } };
    const result = await callTool(o, 'twice', { topic: 'x' }, { callerTurn });
    expect(result.errorDetails?.details).toMatchObject({ step: 1, code: 'BUDGET_EXCEEDED' });
    expect(sideEffects.count).toBe(1);
    expect(callerTurn.budget.remaining).toBe(0);
  });

  it('applies a step’s own timeout', async () => {
    const composed = new ComposedTool({ name: 'slow', description: 'd', inputSchema: { type: 'object' }, steps: [{ tool: 'hang', timeoutMs: 30 }] });
    const o = orchestrator({ tools: [hangingTool('hang'), composed] });
    const started = performance.now();
    const result = await callTool(o, 'slow');
    expect(result.errorDetails?.details).toMatchObject({ step: 0, code: 'TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('passes the composed call’s stop to the running step', async () => {
    let stepSignal: AbortSignal | undefined;
    const started = deferred();
    const composed = new ComposedTool({ name: 'c', description: 'd', inputSchema: { type: 'object' }, steps: [{ tool: 'hang' }] });
    const o = orchestrator({
      tools: [hangingTool('hang', { execute: (_args, context) => ((stepSignal = context.signal), started.resolve(), new Promise(() => {})) }), composed],
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
    const o = orchestrator({ tools: [makeTool('write', { hasSideEffects: true, execute: writes }), composed], approvalGate: gate });
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
    expect(() => new ComposedTool({ ...base, steps: [{ tool: 'a', arguments: { x: '$steps.0.output' } }] })).toThrow(/has not run yet/);
    expect(() => new ComposedTool({ ...base, steps: [{ tool: 'a' }], output: '$steps.1.output' })).toThrow(/does not exist/);
    expect(() => new ComposedTool({ ...base, steps: [{ tool: '' }] })).toThrow(/needs a 'tool' name/);
  });

  it('fails when not attached, and belongs to one orchestrator', async () => {
    const composed = new ComposedTool({ name: 'c', description: 'd', inputSchema: { type: 'object' }, steps: [{ tool: 'a' }] });
    expect(await composed.execute({}, { ...caller })).toMatchObject({ success: false, error: expect.stringMatching(/not attached/) });
    orchestrator({ tools: [composed] });
    expect(() => orchestrator({ tools: [composed] })).toThrow(expect.objectContaining({ code: 'INVALID_TOOL' }));
  });

  it('an ordinary tool failure stays TOOL_FAILED even with a step number in its details', async () => {
    const o = orchestrator({ tools: [makeTool('t', { execute: async () => ({ success: false, error: 'e', details: { step: 1 } }) })] });
    expect((await callTool(o, 't')).errorDetails?.code).toBe('TOOL_FAILED');
  });
});
