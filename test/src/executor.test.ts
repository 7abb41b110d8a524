import { describe, expect, it, vi } from 'vitest';
import { ToolExecutor as AgentOSToolExecutor } from '@framers/agentos/core/tools';
import { ToolExecutor, type ITool } from '../../src/index.js';
import { caller, makeTool } from './helpers.js';

const schema = {
  type: 'object',
  properties: { count: { type: 'integer' }, unit: { type: 'string', default: 'm' } },
  required: ['count'],
  additionalProperties: false,
};

function execute(executor: ToolExecutor, name: string, args: unknown, personaCapabilities: string[] = []) {
  return executor.executeTool({
    ...caller,
    personaCapabilities,
    toolCallRequest: { id: 'c', name, arguments: args as Record<string, unknown> },
  });
}

describe('ToolExecutor', () => {
  it('validates on a copy, coerces and fills defaults; the caller’s object is unchanged', async () => {
    const executor = new ToolExecutor();
    executor.registerTool(
      makeTool('count', { inputSchema: schema, execute: async (args) => ({ success: true, output: args }) }),
    );
    const args = { count: '4' };
    expect(await execute(executor, 'count', args)).toEqual({ success: true, output: { count: 4, unit: 'm' } });
    expect(args).toEqual({ count: '4' });
  });

  it('uses generated validators when the tool has them: nothing compiled, the schema is not read', async () => {
    let calls = 0;
    const input = Object.assign(
      (data: unknown): data is Record<string, unknown> => {
        calls++;
        (data as Record<string, unknown>).filled = true;
        return true;
      },
      { errors: null },
    );
    const executor = new ToolExecutor();
    // A schema that would not compile: with a generated validator it is never compiled.
    executor.registerTool(makeTool('gen', { inputSchema: { type: 'object', notAKeyword: 1 }, validators: { input } }));
    expect(await execute(executor, 'gen', { a: 1 })).toEqual({
      success: true,
      output: { echoed: { a: 1, filled: true } },
    });
    expect(calls).toBe(1);
  });

  it('a tool whose schema does not compile registers, but its calls fail and it does not run', async () => {
    const run = vi.fn(async () => ({ success: true }));
    const executor = new ToolExecutor();
    executor.registerTool(makeTool('bad', { inputSchema: { type: 'object', requried: ['a'] }, execute: run }));
    expect(executor.getTool('bad')?.name).toBe('bad');
    const result = await execute(executor, 'bad', {});
    expect(result).toMatchObject({ success: false, details: { code: 'SCHEMA_INVALID' } });
    expect(run).not.toHaveBeenCalled();
  });

  it('a failing output fails the call but the result keeps the output', async () => {
    const executor = new ToolExecutor();
    executor.registerTool(
      makeTool('out', { outputSchema: { type: 'integer' }, execute: async () => ({ success: true, output: 'seven' }) }),
    );
    const result = await execute(executor, 'out', {});
    expect(result.success).toBe(false);
    expect(result.output).toBe('seven');
    expect(result.details).toMatchObject({ code: 'OUTPUT_INVALID', errors: [{ path: '', keyword: 'type' }] });
  });

  it('answers the coerced output, without touching the tool’s own object', async () => {
    const produced = { n: '7' };
    const executor = new ToolExecutor();
    executor.registerTool(
      makeTool('out', {
        outputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
        execute: async () => ({ success: true, output: produced }),
      }),
    );
    expect(await execute(executor, 'out', {})).toEqual({ success: true, output: { n: 7 } });
    expect(produced).toEqual({ n: '7' });
  });

  it('turns a throw into a failed result, and checks lookup, capabilities and arguments', async () => {
    const executor = new ToolExecutor();
    executor.registerTool(
      makeTool('boom', {
        execute: async () => {
          throw new Error('kaput');
        },
      }),
    );
    executor.registerTool(makeTool('secret', { requiredCapabilities: ['cap:s'] }));
    executor.registerTool(makeTool('count', { inputSchema: schema }));
    expect(await execute(executor, 'boom', {})).toEqual({
      success: false,
      error: "Tool 'boom' threw: kaput",
      details: { code: 'TOOL_ERROR' },
    });
    expect((await execute(executor, 'nope', {})).details?.code).toBe('TOOL_NOT_FOUND');
    expect((await execute(executor, 'secret', {})).details).toEqual({ code: 'PERMISSION_DENIED', missing: ['cap:s'] });
    expect((await execute(executor, 'secret', {}, ['cap:s'])).success).toBe(true);
    expect((await execute(executor, 'count', '[]')).details?.code).toBe('INVALID_REQUEST');
    expect((await execute(executor, 'count', { count: 'x' })).details).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      errors: [{ path: '/count' }],
    });
  });

  it('keeps a failed result as the tool gave it, with its code and without a stack', async () => {
    const executor = new ToolExecutor();
    executor.registerTool(
      makeTool('f', { execute: async () => ({ success: false, error: 'no', details: { why: 1, stack: 's' } }) }),
    );
    expect(await execute(executor, 'f', {})).toEqual({
      success: false,
      error: 'no',
      details: { code: 'TOOL_FAILED', why: 1 },
    });
  });

  it('registers, replaces, lists and removes', () => {
    const executor = new ToolExecutor();
    const first = makeTool('a');
    executor.registerTool(first);
    expect(() => executor.registerTool(makeTool('a'))).toThrow(expect.objectContaining({ code: 'ALREADY_REGISTERED' }));
    const second = makeTool('a');
    expect(executor.registerTool(second, { replace: true })?.tool).toBe(first);
    expect(executor.listTools()).toEqual([second]);
    expect(executor.removeTool('a')?.tool).toBe(second);
    expect(executor.getTool('a')).toBeUndefined();
  });
});

describe('compatibility with AgentOS', () => {
  it('a tool satisfying our ITool registers and runs in AgentOS’s own ToolExecutor', async () => {
    const silence = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => {}),
    );
    try {
      const tool: ITool<{ count: number; unit?: string }, { text: string }> = {
        id: 'toolsmith:format-count',
        name: 'format_count',
        displayName: 'Format count',
        description: 'Formats a count with its unit.',
        inputSchema: schema,
        outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        requiredCapabilities: ['cap:format'],
        category: 'test',
        version: '1.0.0',
        hasSideEffects: false,
        async execute(args) {
          return { success: true, output: { text: `${args.count} ${args.unit}` } };
        },
      };
      const agentos = new AgentOSToolExecutor();
      await agentos.registerTool(tool);
      expect(agentos.getTool('format_count')).toBe(tool);
      const ok = await agentos.executeTool({
        ...caller,
        personaCapabilities: ['cap:format'],
        toolCallRequest: { id: 'c1', name: 'format_count', arguments: { count: '3' } },
      });
      expect(ok).toEqual({ success: true, output: { text: '3 m' } });
      const denied = await agentos.executeTool({
        ...caller,
        personaCapabilities: [],
        toolCallRequest: { id: 'c2', name: 'format_count', arguments: { count: 3 } },
      });
      expect(denied.success).toBe(false);

      // And the same tool runs in ours with the same answer.
      const ours = new ToolExecutor();
      ours.registerTool(tool);
      expect(await execute(ours, 'format_count', { count: '3' }, ['cap:format'])).toEqual(ok);
    } finally {
      for (const spy of silence) spy.mockRestore();
    }
  });
});
