import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../codegen/cli/main.js';
import { ToolOrchestrator, type CallReportEvent } from '../../src/index.js';
import { makeTool } from '../src/helpers.js';

/*
 * What a tool reports while it runs, outside MCP: `toolsmith call` prints its log messages on stderr
 * (and its progress, on a terminal), and the orchestrator's `onCallReport` hook sees every report.
 */

const conformance = path.resolve(import.meta.dirname, '../conformance');

async function call(tool: string, stderrIsTTY: boolean) {
  let stdout = '';
  let stderr = '';
  const code = await main(['call', tool], {
    cwd: conformance,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stderrIsTTY,
  });
  return { code, result: JSON.parse(stdout), stderr };
}

describe('toolsmith call shows what the tool reports', () => {
  it('prints log messages on stderr, stdout keeping only the result', async () => {
    const { code, result, stderr } = await call('test_tool_with_logging', false);
    expect([code, result.isError]).toEqual([0, false]);
    expect(stderr).toBe(
      [
        'test_tool_with_logging info: Tool execution started',
        'test_tool_with_logging info: Tool processing data',
        'test_tool_with_logging info: Tool execution completed',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('shows progress on one line when stderr is a terminal, and nothing when it is not', async () => {
    const terminal = await call('test_tool_with_progress', true);
    expect(terminal.stderr).toBe(
      '\r\x1b[2Ktest_tool_with_progress: 0/100\r\x1b[2Ktest_tool_with_progress: 50/100\r\x1b[2Ktest_tool_with_progress: 100/100\n',
    );
    const piped = await call('test_tool_with_progress', false);
    expect(piped.stderr).toBe('');
  }, 60_000);
});

describe('the onCallReport hook', () => {
  it('sees every report of every call, with or without a caller listening', async () => {
    const events: CallReportEvent[] = [];
    const tool = makeTool('steps', {
      async execute(_args, context) {
        context.progress?.({ progress: 1, total: 2 });
        context.log?.('warning', { step: 1 });
        context.progress?.({ progress: 2, total: 2 });
        return { success: true, output: {} };
      },
    });
    const orchestrator = new ToolOrchestrator({
      tools: [tool],
      hooks: { onCallReport: (event) => events.push(event) },
    });
    const listened: string[] = [];
    for (const reporter of [undefined, { log: (level: string) => listened.push(level) }]) {
      await orchestrator.processToolCall({
        toolCallRequest: { id: 'c', name: 'steps', arguments: {} },
        gmiId: 'g',
        personaId: 'p',
        userContext: { userId: 'u' },
        ...(reporter === undefined ? {} : { reporter }),
      });
    }
    expect(
      events.map((event) => (event.kind === 'progress' ? `progress ${event.progress.progress}` : `log ${event.level}`)),
    ).toEqual(['progress 1', 'log warning', 'progress 2', 'progress 1', 'log warning', 'progress 2']);
    expect(events[0]).toMatchObject({ toolName: 'steps', toolCallId: 'c' });
    expect(listened).toEqual(['warning']);
  });
});
