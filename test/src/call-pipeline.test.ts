import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLazyTools } from '../../generated/lazy-registry.js';
import {
  TOOL_ERROR_CODES,
  ToolExecutor,
  ToolOrchestrator,
  defineLazyTool,
  type ITool,
  type ToolExecutionRequestDetails,
} from '../../src/index.js';
import {
  PipelineCall,
  endCall,
  failCall,
  type CallHost,
  type CallStep,
  type CallStepImplementation,
} from '../../src/pipeline/call.js';
import { CALL_STEP_ORDER } from '../../src/call-order.js';
import { createDriver } from '../../src/pipeline/driver.js';
import { COMPOSED_TOOL } from '../../src/pipeline/markers.js';

import { CALL_STEPS } from '../../src/pipeline/driver.js';
import { CalculatorTool } from '../../src/tools/calculator.js';
import { REPO } from '../helpers/temp-project.js';
import { caller, makeTool } from './helpers.js';

const count = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count'],
  additionalProperties: false,
};

/** One tool per way a call can end, each registered in an orchestrator and an executor alike. */
function scenarioTools(): ITool[] {
  const refusal = async () => ({ success: false, error: 'not today' });
  return [
    makeTool('secret', { inputSchema: count, requiredCapabilities: ['cap:secret'] }),
    makeTool('refuses', { refusal }),
    makeTool('secret_refuses', { requiredCapabilities: ['cap:secret'], refusal }),
    makeTool('count', { inputSchema: count }),
    makeTool('picky', { validateArgs: () => ({ isValid: false, errors: [{ path: '/text', message: 'too short' }] }) }),
    makeTool('boom', {
      execute: async () => {
        throw new Error('kaput');
      },
    }),
    makeTool('fails', { execute: async () => ({ success: false, error: 'no luck' }) }),
    makeTool('bad_output', {
      outputSchema: { type: 'integer' },
      execute: async () => ({ success: true, output: 'x' }),
    }),
    makeTool('slow', { timeoutMs: 20, execute: () => new Promise(() => {}) }),
    makeTool('sync_result', { execute: () => ({ success: true, output: { sync: true } }) }),
    defineLazyTool({ ...new CalculatorTool(), name: 'lazy_broken' }, async () => {
      throw new Error('disk on fire');
    }),
    defineLazyTool(new CalculatorTool(), async () => new CalculatorTool()),
  ];
}

const SCENARIOS: ReadonlyArray<[label: string, name: string, args: unknown, capabilities: string[], code: string]> = [
  ['no name', '', {}, [], 'INVALID_REQUEST'],
  ['unknown tool', 'nope', {}, [], 'TOOL_NOT_FOUND'],
  ['malformed and not permitted', 'secret', '[1]', [], 'INVALID_REQUEST'],
  ['arguments not JSON and not permitted', 'secret', '{', [], 'INVALID_REQUEST'],
  ['not permitted, invalid arguments', 'secret', { count: 'x' }, [], 'PERMISSION_DENIED'],
  ['refused', 'refuses', {}, [], 'REFUSED'],
  ['refused and not permitted (refusal first)', 'secret_refuses', {}, [], 'REFUSED'],
  ['invalid arguments', 'count', { count: 'x' }, [], 'INVALID_ARGUMENTS'],
  ['validateArgs rejects', 'picky', { text: 'a' }, [], 'INVALID_ARGUMENTS'],
  ['execute throws', 'boom', {}, [], 'TOOL_ERROR'],
  ['execute fails', 'fails', {}, [], 'TOOL_FAILED'],
  ['output invalid', 'bad_output', {}, [], 'OUTPUT_INVALID'],
  ['past its own timeout', 'slow', {}, [], 'TIMEOUT'],
  ['a lazy tool that cannot load', 'lazy_broken', { expression: '1' }, [], 'TOOL_ERROR'],
  ['a lazy tool, invalid arguments after its load', 'calculator', { expression: ['1'] }, [], 'INVALID_ARGUMENTS'],
];

function request(name: string, args: unknown, personaCapabilities: string[]): ToolExecutionRequestDetails {
  return { ...caller, personaCapabilities, toolCallRequest: { id: 'c', name, arguments: args as string } };
}

describe('one call pipeline: ToolExecutor runs the orchestrator’s steps', () => {
  it('a valid call to a generated lazy tool through ToolExecutor.executeTool returns the tool’s result', async () => {
    const executor = new ToolExecutor();
    for (const tool of createLazyTools()) executor.registerTool(tool);
    const answer = await executor.executeTool(request('calculator', { expression: '2*(3+4)' }, []));
    expect(answer).toEqual({ success: true, output: { expression: '2*(3+4)', result: 14 } });
    // Loaded once: the executor now holds the real tool and its generated validators.
    expect(executor.getTool('calculator')).toBeInstanceOf(CalculatorTool);
    expect(await executor.executeTool(request('calculator', '{"expression":"6*7"}', []))).toEqual({
      success: true,
      output: { expression: '6*7', result: 42 },
    });
  });

  it.each(SCENARIOS)('%s: the same code through both (%s)', async (_label, name, args, capabilities, code) => {
    const orchestrator = new ToolOrchestrator({ tools: scenarioTools() });
    const executor = new ToolExecutor();
    for (const tool of scenarioTools()) executor.registerTool(tool);
    const [viaOrchestrator, viaExecutor] = await Promise.all([
      orchestrator.processToolCall(request(name, args, capabilities)),
      executor.executeTool(request(name, args, capabilities)),
    ]);
    expect(viaOrchestrator.errorDetails?.code).toBe(code);
    expect(viaExecutor.success).toBe(false);
    expect(viaExecutor.details?.code).toBe(code);
    await orchestrator.shutdown({ timeoutMs: 50 });
  });

  it('the executor answers with the orchestrator’s message and details, in its own result shape', async () => {
    const orchestrator = new ToolOrchestrator({ tools: scenarioTools() });
    const executor = new ToolExecutor();
    for (const tool of scenarioTools()) executor.registerTool(tool);
    const ours = await orchestrator.processToolCall(request('secret', { count: 1 }, []));
    expect(await executor.executeTool(request('secret', { count: 1 }, []))).toEqual({
      success: false,
      error: ours.errorDetails!.message,
      details: { code: 'PERMISSION_DENIED', missing: ['cap:secret'] },
    });
    expect(await executor.executeTool(request('secret', { count: '2' }, ['cap:secret']))).toEqual({
      success: true,
      output: { echoed: { count: 2 } },
    });
    expect(await executor.executeTool(request('sync_result', {}, []))).toEqual({
      success: true,
      output: { sync: true },
    });
    await orchestrator.shutdown();
  });
});

describe('the step list', () => {
  it('the driver runs the steps of CALL_STEP_ORDER, in that order', () => {
    expect(CALL_STEPS.map((step) => step.name)).toEqual(CALL_STEP_ORDER.map(([name]) => name));
    expect(CALL_STEPS.map((step) => step.codes)).toEqual(CALL_STEP_ORDER.map(([, codes]) => codes));
  });

  it('TOOL_ERROR_CODES follows from the steps: each code at the first step answering it, then registration', () => {
    const fromSteps: string[] = [];
    for (const step of CALL_STEPS) for (const code of step.codes) if (!fromSteps.includes(code)) fromSteps.push(code);
    expect(TOOL_ERROR_CODES).toEqual([...fromSteps, 'ALREADY_REGISTERED', 'INVALID_TOOL']);
    expect(TOOL_ERROR_CODES.indexOf('PERMISSION_DENIED')).toBeLessThan(TOOL_ERROR_CODES.indexOf('INVALID_ARGUMENTS'));
    expect(TOOL_ERROR_CODES.indexOf('REFUSED')).toBeLessThan(TOOL_ERROR_CODES.indexOf('PERMISSION_DENIED'));
  });

  it('the docs’ call order table names every step, in the order they run', () => {
    const page = readFileSync(path.join(REPO, 'docs', 'calling.md'), 'utf8');
    const heading = page.indexOf('## The call order and its error codes');
    expect(heading).toBeGreaterThanOrEqual(0);
    const section = page.slice(heading);
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| # |')));
    const named = table
      .split('\n')
      .slice(2)
      .flatMap((row) => [...(row.split('|')[2] ?? '').matchAll(/`([a-z-]+)`/g)].map((match) => match[1]));
    expect(named).toEqual(CALL_STEPS.map((step) => step.name));
  });

  it('a composed tool is recognized by its marker, not its class (no import of composed.ts)', async () => {
    const stepFailure = async () => ({
      success: false,
      error: 'step 0 failed',
      details: { step: 0, code: 'TOOL_FAILED', message: 'x' },
    });
    const marked = Object.assign(makeTool('marked', { execute: stepFailure }), { [COMPOSED_TOOL]: true });
    const plain = makeTool('plain', { execute: stepFailure });
    const orchestrator = new ToolOrchestrator({ tools: [marked, plain] });
    const code = async (name: string) => (await orchestrator.processToolCall(request(name, {}, []))).errorDetails?.code;
    expect(await code('marked')).toBe('STEP_FAILED');
    expect(await code('plain')).toBe('TOOL_FAILED');
    await orchestrator.shutdown();
  });
});

describe('the driver', () => {
  /** A call whose host records how it was settled. */
  function recordedCall(): { call: PipelineCall; settled: Promise<PipelineCall> } {
    let settle!: (call: PipelineCall) => void;
    const settled = new Promise<PipelineCall>((resolve) => {
      settle = resolve;
    });
    const host = { settle } as unknown as CallHost;
    return { call: new PipelineCall(host), settled };
  }

  function step(implementation: CallStepImplementation): CallStep {
    return { name: 'request', codes: [], resume: undefined, reject: undefined, ...implementation };
  }

  it('runs every step in order, synchronously until one returns something pending, then from its resume', async () => {
    const ran: string[] = [];
    const count = 34; // past the 30 positions a plan can skip: those run too
    const steps = Array.from({ length: count }, (_, index) =>
      step({
        run(call) {
          ran.push(`run ${index}`);
          if (index === count - 1) return endCall(call);
          if (index === 2 || index === 32) return Promise.resolve(index * 10);
        },
        resume(_call, value) {
          ran.push(`resume ${index} with ${String(value)}`);
        },
      }),
    );
    const { call, settled } = recordedCall();
    createDriver(steps)(call, 0);
    expect(ran).toEqual(['run 0', 'run 1', 'run 2']); // synchronous up to the first pending step
    expect((await settled).failure).toBeUndefined();
    const expected: string[] = [];
    for (let index = 0; index < count; index++) {
      expected.push(`run ${index}`);
      if (index === 2 || index === 32) expected.push(`resume ${index} with ${index * 10}`);
    }
    expect(ran).toEqual(expected);
  });

  it('stops at the step that ends the call; a throw or a rejection without a handler is TOOL_ERROR', async () => {
    const ran: number[] = [];
    const steps = [0, 1, 2].map((index) =>
      step({
        run(call) {
          ran.push(index);
          if (index === 1) failCall(call, 'REFUSED', 'no');
        },
      }),
    );
    const first = recordedCall();
    createDriver(steps)(first.call, 0);
    expect(ran).toEqual([0, 1]);
    expect((await first.settled).failure?.code).toBe('REFUSED');

    const throwing = recordedCall();
    createDriver([
      step({
        run() {
          throw new Error('bug');
        },
      }),
    ])(throwing.call, 0);
    expect((await throwing.settled).failure?.message).toMatch(/Internal error while calling tool 'unknown': bug/);

    const rejected = recordedCall();
    createDriver([step({ run: () => Promise.reject(new Error('late')) })])(rejected.call, 0);
    expect((await rejected.settled).failure?.message).toMatch(/: late$/);

    const unended = recordedCall();
    createDriver([step({ run: () => undefined })])(unended.call, 0);
    expect((await unended.settled).failure?.message).toMatch(/ended without an answer/);
  });
});

describe('the executor view resolves once, whatever the tool answers', () => {
  it('a successful result with a getter that throws is a TOOL_ERROR result, not a call left pending', async () => {
    const hostile = {
      success: true,
      output: { ok: true },
      get extra(): unknown {
        throw new Error('no reading me');
      },
    };
    const executor = new ToolExecutor();
    executor.registerTool(makeTool('hostile', { execute: async () => hostile }));
    const answer = await executor.executeTool(request('hostile', {}, []));
    expect(answer).toEqual({
      success: false,
      error: "Tool 'hostile' answered a result that cannot be read: no reading me",
      details: { code: 'TOOL_ERROR' },
    });
  });
});
