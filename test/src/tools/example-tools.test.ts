import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolClient, createTools } from '../../../generated/registry.js';
import { ToolOrchestrator, type ApprovalRequest, type ToolCallDetails } from '../../../src/index.js';
import { evaluateExpression } from '../../../src/tools/calculator.js';
import { GetCurrentDatetimeTool } from '../../../src/tools/get-current-datetime.js';
import { ListDirectoryTool } from '../../../src/tools/list-directory.js';
import { MemoryReadTool } from '../../../src/tools/memory-read.js';
import { MemoryWriteTool } from '../../../src/tools/memory-write.js';
import { ReadFileTool } from '../../../src/tools/read-file.js';
import { CalculatorTool } from '../../../src/tools/calculator.js';
import { RememberCalculationTool } from '../../../src/tools/remember-calculation.js';

const ALL = ['capability:filesystem:read', 'capability:memory:write'];

let dir: string;
let files: string;
let data: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'toolsmith-tools-'));
  files = path.join(dir, 'files');
  data = path.join(dir, 'data');
  mkdirSync(path.join(files, 'notes/deep'), { recursive: true });
  writeFileSync(path.join(files, 'notes/todo.md'), '# Todo\n- write tests\n');
  writeFileSync(path.join(files, 'notes/deep/x.txt'), 'x');
  writeFileSync(path.join(dir, 'secret.txt'), 'outside the root');
  symlinkSync(path.join(dir, 'secret.txt'), path.join(files, 'escape.txt'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function orchestrator(options: { approvalGate?: (request: ApprovalRequest) => Promise<boolean> } = {}) {
  const now = () => new Date('2026-03-29T00:30:00.000Z');
  return new ToolOrchestrator({
    allowSideEffects: true,
    tools: [
      new CalculatorTool(),
      new GetCurrentDatetimeTool({ now }),
      new MemoryReadTool({ dataDir: data }),
      new MemoryWriteTool({ dataDir: data, now }),
      new ReadFileTool({ root: files }),
      new ListDirectoryTool({ root: files }),
      new RememberCalculationTool(),
    ],
    ...(options.approvalGate ? { approvalGate: options.approvalGate } : {}),
  });
}

function call(
  o: ToolOrchestrator,
  name: string,
  args: unknown,
  capabilities = ALL,
  extra: Partial<ToolCallDetails> = {},
) {
  return o.processToolCall({
    toolCallRequest: { id: `t-${name}`, name, arguments: args as Record<string, unknown> },
    gmiId: 'g',
    personaId: 'p',
    personaCapabilities: capabilities,
    userContext: { userId: 'u' },
    ...extra,
  });
}

describe('the generated registry', () => {
  it('creates every example tool, in name order', () => {
    expect(createTools().map((tool) => tool.name)).toEqual([
      'calculator',
      'get_current_datetime',
      'list_directory',
      'memory_read',
      'memory_write',
      'read_file',
      'remember_calculation',
    ]);
  });

  it('gives a typed client that calls through the orchestrator', async () => {
    const client = createToolClient(orchestrator(), {
      gmiId: 'g',
      personaId: 'p',
      personaCapabilities: [],
      userContext: { userId: 'u' },
    });
    const result = await client.call('calculator', { expression: '6*7' });
    expect(result.output?.result).toBe(42);
  });
});

describe('calculator', () => {
  it.each([
    ['2*(3+4)', 14],
    ['1 + 2 * 3', 7],
    ['2^3^2', 512],
    ['-2^2', -4],
    ['10 % 4', 2],
    ['sqrt(16) + max(1, 2, 3)', 7],
    ['1.5e2 / 3', 50],
    ['abs(-3) + floor(2.7) + ceil(0.2) + round(2.5)', 9],
    ['pi', Math.PI],
  ])('%s = %d', (expression, value) => {
    expect(evaluateExpression(expression)).toBeCloseTo(value, 12);
  });

  it('answers through the orchestrator, coercing precision and rounding', async () => {
    const result = await call(orchestrator(), 'calculator', '{"expression":"10/3","precision":"2"}');
    expect(result).toEqual({
      toolCallId: 't-calculator',
      toolName: 'calculator',
      output: { expression: '10/3', result: 3.33 },
      isError: false,
      coercions: [{ path: '/precision', from: '2', to: 2 }],
    });
  });

  it.each([
    ['process.exit(1)', /unknown name "process"/],
    ['1/0', /division by zero/],
    ['2 +', /unexpected end/],
    ['(1', /expected "\)"/],
    ['max()', /unexpected "\)"/],
    ['sqrt(1, 2)', /takes 1 argument/],
  ])('refuses %s as a tool failure, never evaluating code', async (expression, message) => {
    const result = await call(orchestrator(), 'calculator', { expression });
    expect(result.isError).toBe(true);
    expect(result.output).toBeNull();
    expect(result.errorDetails?.code).toBe('TOOL_FAILED');
    expect(result.errorDetails?.message).toMatch(message);
  });

  it('takes the OpenAI strict shape: null for an omitted optional means absent, so the default applies', async () => {
    const result = await call(orchestrator(), 'calculator', '{"expression":"10/3","precision":null}');
    expect(result.output).toEqual({ expression: '10/3', result: 3.3333333333 });
    const listing = await call(orchestrator(), 'list_directory', { path: null, depth: null, include: null });
    expect(listing.output).toMatchObject({ root: { path: '.', type: 'directory' } });
  });

  it('rejects bad input before running', async () => {
    const result = await call(orchestrator(), 'calculator', { expression: '', precision: 99 });
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
    expect(result.errorDetails?.details?.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      '/expression',
      '/precision',
    ]);
  });
});

describe('get_current_datetime', () => {
  it('tells the time in a time zone, with the UTC offset of that date', async () => {
    const result = await call(orchestrator(), 'get_current_datetime', { timeZone: 'Europe/Paris' });
    expect(result.isError).toBe(false);
    expect(result.output).toMatchObject({
      timeZone: 'Europe/Paris',
      iso: '2026-03-29T01:30:00+01:00',
      utc: '2026-03-29T00:30:00.000Z',
      parts: { year: 2026, month: 3, day: 29, hour: 1, minute: 30, second: 0, weekday: 'Sunday' },
    });
  });

  it('defaults to UTC', async () => {
    const result = await call(orchestrator(), 'get_current_datetime', {});
    expect(result.output).toMatchObject({ timeZone: 'UTC', iso: '2026-03-29T00:30:00+00:00' });
  });

  it('rejects a time zone that is not IANA as an argument error', async () => {
    const result = await call(orchestrator(), 'get_current_datetime', { timeZone: 'Mars/Olympus_Mons' });
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
    expect(JSON.stringify(result.errorDetails?.details)).toContain('/timeZone');
  });
});

describe('memory_write and memory_read', () => {
  it('writes with the capability, then reads by key, prefix and tag', async () => {
    const o = orchestrator();
    const written = await call(o, 'memory_write', { key: 'user.units', value: 'metric', tags: ['prefs'] });
    expect(written.output).toEqual({
      entry: { key: 'user.units', value: 'metric', tags: ['prefs'], updatedAt: '2026-03-29T00:30:00.000Z' },
      created: true,
    });
    const again = await call(o, 'memory_write', { key: 'user.units', value: 'imperial' });
    expect(again.output).toMatchObject({ created: false, entry: { value: 'imperial', tags: [] } });
    await call(o, 'memory_write', { key: 'user.name', value: 'Ada', tags: ['prefs'] });
    expect((await call(o, 'memory_read', { query: { key: 'user.units' } })).output).toMatchObject({
      total: 1,
      entries: [{ value: 'imperial' }],
    });
    expect((await call(o, 'memory_read', { query: { prefix: 'user.' }, limit: 1 })).output).toMatchObject({ total: 2 });
    expect(
      (
        (await call(o, 'memory_read', { query: { tag: 'prefs' } })).output as { entries: { key: string }[] }
      ).entries.map((entry) => entry.key),
    ).toEqual(['user.name']);
  });

  it('is denied without the write capability and writes nothing', async () => {
    const o = orchestrator();
    const result = await call(o, 'memory_write', { key: 'denied.key', value: 'x' }, []);
    expect(result.errorDetails).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { missing: ['capability:memory:write'] },
    });
    expect((await call(o, 'memory_read', { query: { key: 'denied.key' } })).output).toEqual({ entries: [], total: 0 });
  });

  it('needs approval when a gate is configured; a rejection writes nothing', async () => {
    const asked: string[] = [];
    const o = orchestrator({
      approvalGate: async ({ tool, args }) => (
        asked.push(`${tool.name}:${String(args.key)}`),
        args.key !== 'rejected.key'
      ),
    });
    expect((await call(o, 'memory_write', { key: 'rejected.key', value: 'x' })).errorDetails?.code).toBe(
      'APPROVAL_REJECTED',
    );
    expect((await call(o, 'memory_write', { key: 'approved.key', value: 'y' })).isError).toBe(false);
    expect((await call(o, 'memory_read', { query: { prefix: '' } })).isError).toBe(false);
    expect(asked).toEqual(['memory_write:rejected.key', 'memory_write:approved.key']);
    expect((await call(o, 'memory_read', { query: { key: 'rejected.key' } })).output).toEqual({
      entries: [],
      total: 0,
    });
  });

  it('rejects a query that is not exactly one of key, prefix or tag', async () => {
    const result = await call(orchestrator(), 'memory_read', { query: { key: 'a', tag: 'b' } });
    expect(result.errorDetails?.code).toBe('INVALID_ARGUMENTS');
  });

  it('serializes concurrent writes: none is lost', async () => {
    const o = orchestrator();
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => call(o, 'memory_write', { key: `burst.${i}`, value: String(i) })),
    );
    expect((await call(o, 'memory_read', { query: { prefix: 'burst.' }, limit: 100 })).output).toMatchObject({
      total: 25,
    });
  });
});

describe('read_file and list_directory', () => {
  it('reads a file under the root', async () => {
    const result = await call(orchestrator(), 'read_file', { path: 'notes/todo.md' });
    expect(result.output).toEqual({
      path: 'notes/todo.md',
      size: 21,
      encoding: 'utf8',
      content: '# Todo\n- write tests\n',
      truncated: false,
    });
  });

  it('truncates at maxBytes and can answer base64', async () => {
    const result = await call(orchestrator(), 'read_file', { path: 'notes/todo.md', maxBytes: 6, encoding: 'base64' });
    expect(result.output).toMatchObject({
      content: Buffer.from('# Todo').toString('base64'),
      truncated: true,
      size: 21,
    });
  });

  it.each(['../secret.txt', 'notes/../../secret.txt', path.join(tmpdir(), 'x'), '..'])(
    'refuses the path escape %s before acting',
    async (attempt) => {
      const result = await call(orchestrator(), 'read_file', { path: attempt });
      expect(result.errorDetails?.code).toBe('REFUSED');
      expect(result.output).toBeNull();
    },
  );

  it('refuses a symbolic link that points outside the root', async () => {
    const result = await call(orchestrator(), 'read_file', { path: 'escape.txt' });
    expect(result.errorDetails?.code).toBe('TOOL_FAILED');
    expect(result.errorDetails?.message).toMatch(/outside the root/);
  });

  it('needs the filesystem capability', async () => {
    const result = await call(orchestrator(), 'read_file', { path: 'notes/todo.md' }, []);
    expect(result.errorDetails).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { missing: ['capability:filesystem:read'] },
    });
  });

  it('reports a missing file as a failure', async () => {
    const result = await call(orchestrator(), 'read_file', { path: 'nope.md' });
    expect(result.errorDetails?.code).toBe('TOOL_FAILED');
    expect(result.errorDetails?.message).toMatch(/does not exist/);
  });

  it('lists a folder as a sorted recursive tree to a depth', async () => {
    const result = await call(orchestrator(), 'list_directory', { path: 'notes', depth: 2 });
    expect(result.output).toEqual({
      root: {
        name: 'notes',
        path: 'notes',
        type: 'directory',
        children: [
          {
            name: 'deep',
            path: 'notes/deep',
            type: 'directory',
            children: [{ name: 'x.txt', path: 'notes/deep/x.txt', type: 'file', size: 1 }],
          },
          { name: 'todo.md', path: 'notes/todo.md', type: 'file', size: 21 },
        ],
      },
      truncated: false,
      omitted: 0,
    });
    const shallow = await call(orchestrator(), 'list_directory', { path: 'notes', depth: 1, include: 'directories' });
    expect(shallow.output).toEqual({
      root: {
        name: 'notes',
        path: 'notes',
        type: 'directory',
        children: [{ name: 'deep', path: 'notes/deep', type: 'directory' }],
      },
      truncated: false,
      omitted: 0,
    });
  });

  it('refuses ../ for list_directory too', async () => {
    expect((await call(orchestrator(), 'list_directory', { path: '../' })).errorDetails?.code).toBe('REFUSED');
  });

  it('a path of the wrong type reaches validation, not the refusal check', async () => {
    expect((await call(orchestrator(), 'list_directory', { path: { nested: true } })).errorDetails?.code).toBe(
      'INVALID_ARGUMENTS',
    );
    expect((await call(orchestrator(), 'read_file', { path: ['a'] })).errorDetails?.code).toBe('INVALID_ARGUMENTS');
  });
});

describe('remember_calculation (composed)', () => {
  it('runs calculator then memory_write, with the caller’s capabilities', async () => {
    const o = orchestrator();
    const result = await call(o, 'remember_calculation', { expression: '12*7', key: 'calc.result' });
    expect(result.isError).toBe(false);
    expect(result.output).toMatchObject({
      created: true,
      entry: { key: 'calc.result', value: '84', tags: ['calculation'] },
    });
  });

  it('fails STEP_FAILED when the caller lacks the second step’s capability; the first step ran', async () => {
    const o = orchestrator();
    const result = await call(o, 'remember_calculation', { expression: '1+1', key: 'calc.denied' }, []);
    expect(result.errorDetails).toMatchObject({ code: 'STEP_FAILED', details: { step: 1, code: 'PERMISSION_DENIED' } });
    expect((await call(o, 'memory_read', { query: { key: 'calc.denied' } })).output).toEqual({ entries: [], total: 0 });
  });
});
