import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TOOL_ERROR_CODES,
  ToolOrchestrator,
  defineComposedTool,
  defineLazyTool,
  type ITool,
  type ToolCallDetails,
  type ToolCallResult,
  type ToolOrchestratorOptions,
} from '../../src/index.js';
import { describeThrown, isToolsmithError } from '../../src/errors.js';
import { caller, makeTool } from './helpers.js';
import { HOSTILE_VALUES, buildHostile, hostileRecipe, makeHostile, type HostileRecipe } from './hostile.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where a hostile value enters a call, and the codes the call may end with. */
interface Site {
  /** The tools to register (the one called is named `t`), options and request details. */
  setup(value: unknown): {
    tools: ITool[];
    options?: ToolOrchestratorOptions;
    extra?: Partial<ToolCallDetails>;
    args?: unknown;
    abort?: unknown;
  };
  codes: readonly string[];
}

const OBJECT_OUTPUT = { type: 'object', required: ['x'], properties: { x: { type: 'string' } } };
/** A result a tool answers when it does not fail (`OK` in the code lists). */
const fine = async () => ({ success: true, output: { x: 'fine' } });

/** Later than the microtasks of the call: a rejection or answer that comes from a timer. */
function later<T>(act: () => T): Promise<Awaited<T>> {
  return new Promise((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(act() as Awaited<T>);
      } catch (error) {
        reject(error);
      }
    }, 1),
  );
}

/** A rejected native promise whose `constructor` getter throws: `Promise.resolve` and `then` throw on it. */
function rejectedWithThrowingConstructor(value: unknown): Promise<never> {
  const promise = Promise.reject(value);
  Object.defineProperty(promise, 'constructor', {
    configurable: true,
    get() {
      throw value;
    },
  });
  return promise;
}

/** A rejected promise of a subclass whose `Symbol.species` getter throws: subscribing to it throws. */
function rejectedWithThrowingSpecies(value: unknown): Promise<never> {
  class Evil<T> extends Promise<T> {
    static override get [Symbol.species](): never {
      throw value;
    }
  }
  return Evil.reject(value) as Promise<never>;
}

const SITES: Record<string, Site> = {
  'execute throws': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          execute: () => {
            throw v;
          },
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'execute rejects': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          execute: async () => {
            throw v;
          },
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'execute rejects later': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          execute: () =>
            later(() => {
              throw v;
            }),
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'execute answers a rejected thenable': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          execute: () => ({ then: (_ok: unknown, reject: (e: unknown) => void) => reject(v) }) as never,
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'execute answers a thenable whose then throws': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          execute: () =>
            ({
              get then() {
                throw v;
              },
            }) as never,
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'execute answers a rejected promise whose constructor throws': {
    setup: (v) => ({ tools: [makeTool('t', { execute: () => rejectedWithThrowingConstructor(v) })] }),
    codes: ['TOOL_ERROR'],
  },
  'execute answers a rejected promise whose species throws': {
    setup: (v) => ({ tools: [makeTool('t', { execute: () => rejectedWithThrowingSpecies(v) })] }),
    codes: ['TOOL_ERROR'],
  },
  'refusal answers a rejected promise whose species throws': {
    setup: (v) => ({ tools: [makeTool('t', { refusal: () => rejectedWithThrowingSpecies(v) })] }),
    codes: ['TOOL_ERROR'],
  },
  'hooks answer rejected promises whose constructor throws': {
    setup: (v) => ({
      tools: [makeTool('t', { execute: fine })],
      options: {
        hooks: {
          onCallStart: () => rejectedWithThrowingConstructor(v),
          onCallEnd: () => rejectedWithThrowingSpecies(v),
        },
      },
    }),
    codes: ['OK'],
  },
  'execute answers it as the result': {
    setup: (v) => ({ tools: [makeTool('t', { execute: async () => v as never })] }),
    codes: ['TOOL_ERROR', 'TOOL_FAILED'],
  },
  'result whose success getter throws it': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          execute: async () =>
            ({
              get success(): boolean {
                throw v;
              },
            }) as never,
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'failure details': {
    setup: (v) => ({
      tools: [makeTool('t', { execute: async () => ({ success: false, error: 'no', details: v as never }) })],
    }),
    codes: ['TOOL_FAILED', 'TOOL_ERROR'],
  },
  'output checked against a schema': {
    setup: (v) => ({
      tools: [makeTool('t', { outputSchema: OBJECT_OUTPUT, execute: async () => ({ success: true, output: v }) })],
    }),
    codes: ['OUTPUT_INVALID'],
  },
  'refusal throws': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          refusal: () => {
            throw v;
          },
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'refusal rejects later': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          refusal: () =>
            later(() => {
              throw v;
            }),
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'refusal answers it': {
    setup: (v) => ({ tools: [makeTool('t', { refusal: () => v as never, execute: fine })] }),
    codes: ['TOOL_ERROR', 'REFUSED', 'OK'], // null and undefined are "no refusal"
  },
  'approval gate throws': {
    setup: (v) => ({
      tools: [makeTool('t', { hasSideEffects: true })],
      options: {
        approvalGate: () => {
          throw v;
        },
      },
    }),
    codes: ['APPROVAL_FAILED'],
  },
  'approval gate rejects later': {
    setup: (v) => ({
      tools: [makeTool('t', { hasSideEffects: true })],
      options: {
        approvalGate: () =>
          later(() => {
            throw v;
          }),
      },
    }),
    codes: ['APPROVAL_FAILED'],
  },
  'approval gate answers it': {
    setup: (v) => ({
      tools: [makeTool('t', { hasSideEffects: true })],
      options: { approvalGate: async () => v as never },
    }),
    codes: ['APPROVAL_FAILED', 'APPROVAL_REJECTED'],
  },
  'validateArgs throws': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          validateArgs: () => {
            throw v;
          },
        }),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'validateArgs answers it': {
    setup: (v) => ({ tools: [makeTool('t', { validateArgs: () => v as never })] }),
    codes: ['TOOL_ERROR', 'INVALID_ARGUMENTS'],
  },
  'validateArgs lists it as an error': {
    setup: (v) => ({ tools: [makeTool('t', { validateArgs: () => ({ isValid: false, errors: [v] }) })] }),
    codes: ['TOOL_ERROR', 'INVALID_ARGUMENTS'],
  },
  'lazy load throws': {
    setup: (v) => ({
      tools: [
        defineLazyTool(
          {
            name: 't',
            metadata: () => {
              throw v;
            },
          },
          () => {
            throw v;
          },
        ),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'lazy load rejects later': {
    setup: (v) => ({
      tools: [
        defineLazyTool(
          {
            name: 't',
            metadata: () => {
              throw v;
            },
          },
          () =>
            later(() => {
              throw v;
            }),
        ),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'lazy load answers it': {
    setup: (v) => ({
      tools: [
        defineLazyTool(
          {
            name: 't',
            metadata: () => {
              throw v;
            },
          },
          async () => v as never,
        ),
      ],
    }),
    codes: ['TOOL_ERROR'],
  },
  'hooks throw it (and the tool too)': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          execute: async () => {
            throw v;
          },
        }),
      ],
      options: {
        hooks: {
          onCallStart: () => {
            throw v;
          },
          onCallEnd: () => {
            throw v;
          },
        },
      },
    }),
    codes: ['TOOL_ERROR'],
  },
  'abort reason (the tool rejects with it)': {
    setup: (v) => ({
      tools: [
        makeTool('t', {
          execute: (_args, context) =>
            new Promise((_resolve, reject) =>
              context.signal?.addEventListener('abort', () => reject(context.signal?.reason)),
            ),
        }),
      ],
      abort: v,
    }),
    codes: ['ABORTED'],
  },
  'rejects with it after the deadline': {
    setup: (v) => ({
      // Rejects once the deadline has answered (on its signal, a turn later): timers of different lengths do not fire in a fixed order when the process is late.
      tools: [
        makeTool('t', {
          timeoutMs: 2,
          execute: (_args, context) =>
            new Promise((_resolve, reject) =>
              context.signal?.addEventListener('abort', () => setTimeout(() => reject(v), 1)),
            ),
        }),
      ],
    }),
    codes: ['TIMEOUT'],
  },
  arguments: {
    setup: (v) => ({ tools: [makeTool('t', { execute: fine })], args: v }),
    codes: ['INVALID_REQUEST', 'OK'],
  },
  'composed step throws': {
    setup: (v) => ({
      tools: [
        makeTool('inner', {
          execute: async () => {
            throw v;
          },
        }),
        defineComposedTool({
          name: 't',
          description: 'x',
          inputSchema: { type: 'object' },
          steps: [{ tool: 'inner' }],
        }),
      ],
    }),
    codes: ['STEP_FAILED'],
  },
};

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

const NEVER = Symbol('never answered');

/** Runs the call of `site` with a fresh `kind` value: its result, how often it ended, and how often it resolved. */
async function run(siteName: string, kind: string | HostileRecipe): Promise<{ result: ToolCallResult; ends: number }> {
  const value = typeof kind === 'string' ? makeHostile(kind) : buildHostile(kind);
  const { tools, options = {}, extra = {}, args = {}, abort } = SITES[siteName]!.setup(value);
  let ends = 0;
  const hooks = options.hooks;
  const orchestrator = new ToolOrchestrator({
    ...options,
    tools,
    shutdownTimeoutMs: 20,
    hooks: {
      onCallStart: hooks?.onCallStart,
      onCallEnd(event) {
        if (event.toolCallId === 'hostile') ends++;
        return hooks?.onCallEnd?.(event); // what the hook answers reaches the orchestrator
      },
    },
  });
  const controller = new AbortController();
  const pending = orchestrator.processToolCall({
    ...caller,
    toolCallRequest: { id: 'hostile', name: 't', arguments: args as Record<string, unknown> },
    signal: controller.signal,
    ...extra,
  });
  if (abort !== undefined || siteName.startsWith('abort')) setTimeout(() => controller.abort(abort), 2);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    pending,
    new Promise<typeof NEVER>((resolve) => (timer = setTimeout(resolve, 2_000, NEVER))),
  ]);
  clearTimeout(timer);
  if (outcome === NEVER) throw new Error(`${siteName} / ${JSON.stringify(kind)}: the call never resolved`);
  await new Promise((resolve) => setTimeout(resolve, siteName.includes('deadline') ? 25 : 0)); // let late rejections and unhandled-rejection checks run
  await orchestrator.shutdown();
  return { result: outcome, ends };
}

function codeOf(result: ToolCallResult): string {
  return result.isError ? result.errorDetails!.code : 'OK';
}

describe('describeThrown and isToolsmithError are total', () => {
  it('every nested recipe (property)', () => {
    fc.assert(
      fc.property(hostileRecipe, (recipe) => {
        const text = describeThrown(buildHostile(recipe));
        expect(typeof text).toBe('string');
        expect(text).toBe(describeThrown(buildHostile(recipe)));
        expect(isToolsmithError(buildHostile(recipe))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it.each(HOSTILE_VALUES.map(([name]) => name))('%s', (name) => {
    const text = describeThrown(makeHostile(name));
    expect(typeof text).toBe('string');
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThanOrEqual(1100);
    expect(describeThrown(makeHostile(name))).toBe(text); // stable: the same kind of value gives the same text
    expect(isToolsmithError(makeHostile(name))).toBe(false);
  });

  it('describes the values that can be described', () => {
    expect(describeThrown(makeHostile('symbol'))).toBe('Symbol(hostile)');
    expect(describeThrown(makeHostile('bigint'))).toBe(String(10n ** 30n));
    expect(describeThrown(makeHostile('proxy-every-trap-throws'))).toBe('unprintable value');
    expect(describeThrown(makeHostile('error-message-getter-throws'))).toBe('unprintable value');
    expect(describeThrown(makeHostile('undefined'))).toBe('undefined');
    expect(describeThrown(makeHostile('huge-string'))).toMatch(/^x{1000}… \(999000 more characters\)$/);
  });
});

describe('processToolCall resolves exactly once, whatever is thrown or answered', () => {
  const cases = Object.keys(SITES).flatMap((site) => HOSTILE_VALUES.map(([kind]) => [site, kind] as const));

  it(`every site × every hostile value (${cases.length} calls): one result with an expected code, one onCallEnd, no unhandled rejection`, async () => {
    const wrong: string[] = [];
    for (const [site, kind] of cases) {
      const { result, ends } = await run(site, kind);
      const code = codeOf(result);
      if (!SITES[site]!.codes.includes(code))
        wrong.push(`${site} / ${kind}: ${code} ${result.errorDetails?.message ?? ''}`);
      if (ends !== 1) wrong.push(`${site} / ${kind}: onCallEnd ran ${ends} times`);
      if (result.toolCallId !== 'hostile' || result.toolName !== 't')
        wrong.push(`${site} / ${kind}: ${result.toolCallId} ${result.toolName}`);
      if (result.isError && (typeof result.errorDetails?.message !== 'string' || result.output !== null))
        wrong.push(`${site} / ${kind}: malformed error`);
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(wrong).toEqual([]);
    expect(unhandled).toEqual([]);
  }, 60_000);

  it('property: a random site and a hostile value nested in up to three hostile wrappers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(SITES)), hostileRecipe, async (site, kind) => {
        const { result, ends } = await run(site, kind);
        if (result.isError) expect(TOOL_ERROR_CODES as readonly string[]).toContain(result.errorDetails!.code);
        expect(SITES[site]!.codes).toContain(codeOf(result));
        expect(ends).toBe(1);
        expect(unhandled).toEqual([]);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('the answer names the tool and describes the value without throwing', async () => {
    const { result } = await run('execute rejects', 'error-message-getter-throws');
    expect(result.errorDetails).toEqual({ code: 'TOOL_ERROR', message: "Tool 't' threw: unprintable value" });
    const approval = await run('approval gate throws', 'proxy-every-trap-throws');
    expect(approval.result.errorDetails).toEqual({
      code: 'APPROVAL_FAILED',
      message: "The approval gate failed for tool 't': unprintable value",
    });
  });
});

describe('a hostile request, and the executor view', () => {
  it.each(HOSTILE_VALUES.map(([name]) => name))('details, request or name %s: one isError answer', async (kind) => {
    let ends = 0;
    const o = new ToolOrchestrator({
      tools: [makeTool('t')],
      hooks: { onCallEnd: () => void ends++ },
      shutdownTimeoutMs: 20,
    });
    const answers = await Promise.all([
      o.processToolCall(makeHostile(kind) as ToolCallDetails),
      o.processToolCall({ ...caller, toolCallRequest: makeHostile(kind) as never }),
      o.processToolCall({ ...caller, toolCallRequest: { id: 'x', name: makeHostile(kind) as string, arguments: {} } }),
    ]);
    for (const answer of answers) {
      if (kind === 'null' || kind === 'undefined' || kind === 'huge-string' || kind === 'symbol' || kind === 'bigint') {
        expect(answer.isError).toBe(true); // no request or no name: INVALID_REQUEST
      }
      if (answer.isError)
        expect(['INVALID_REQUEST', 'TOOL_ERROR', 'TOOL_NOT_FOUND']).toContain(answer.errorDetails!.code);
    }
    expect(ends).toBe(3);
    await o.shutdown();
  });

  it.each(HOSTILE_VALUES.map(([name]) => name))(
    'ToolExecutor.executeTool with a tool throwing %s: a failed TOOL_ERROR result',
    async (kind) => {
      const { ToolExecutor } = await import('../../src/executor.js');
      const executor = new ToolExecutor();
      executor.registerTool(
        makeTool('t', {
          execute: async () => {
            throw makeHostile(kind);
          },
        }),
      );
      const result = await executor.executeTool({ ...caller, toolCallRequest: { id: 'x', name: 't', arguments: {} } });
      expect(result.success).toBe(false);
      expect(result.details?.code).toBe('TOOL_ERROR');
      expect(result.error).toMatch(/^Tool 't' threw: /);
    },
  );
});

describe('the host process survives (child process, Node default unhandled-rejection handling)', () => {
  it('answers every hostile call and exits 0', async () => {
    const script = path.join(REPO, 'test/fixtures/hostile/call-hostile-tools.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      cwd: REPO,
      timeout: 60_000,
    });
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { site: string; kind: string; code: string });
    const sites = [
      'execute throws',
      'execute rejects',
      'execute rejects later',
      'execute answers a promise whose constructor throws',
      'execute answers a promise whose species throws',
      'refusal rejects later',
      'approval gate rejects later',
      'abort reason',
      'late rejection after the deadline',
      'lazy load rejects later',
    ];
    expect(answers.map((answer) => `${answer.site} / ${answer.kind}`)).toEqual(
      sites.flatMap((site) => HOSTILE_VALUES.map(([kind]) => `${site} / ${kind}`)),
    );
    for (const answer of answers) expect(answer.code, `${answer.site} / ${answer.kind}`).toMatch(/^[A-Z_]+$/);
    expect(new Set(answers.filter((answer) => answer.site === 'execute throws').map((answer) => answer.code))).toEqual(
      new Set(['TOOL_ERROR']),
    );
    expect(new Set(answers.filter((answer) => answer.site === 'abort reason').map((answer) => answer.code))).toEqual(
      new Set(['ABORTED']),
    );
    expect(
      new Set(
        answers.filter((answer) => answer.site === 'late rejection after the deadline').map((answer) => answer.code),
      ),
    ).toEqual(new Set(['TIMEOUT']));
  }, 90_000);
});
