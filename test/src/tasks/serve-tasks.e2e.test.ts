import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isSpecType } from '@modelcontextprotocol/server';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { TASKS_EXTENSION_ID } from '../../../src/tasks/index.js';

/*
 * `toolsmith serve` (stdio, a child process) and tasks, through the official clients of both eras:
 * tasks are announced only when a tool has `taskSupport`; a store named without such a tool is opened
 * (a bad one fails at start) and a warning says nothing is announced. Over stdio a 2025-11-25 client
 * hears its task end (`notifications/tasks/status`) and lists its tasks; a 2026-07-28 client gets
 * -32601 for the methods its extension does not have.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TASK_ENTRY = 'test/fixtures/tasks/entry.ts';
const baseEnv = { PATH: process.env.PATH ?? '' };

/** What the server announces to a v1 client (2025-11-25 handshake) and to a v2 client pinned to 2026-07-28. */
async function announced(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ legacy: Record<string, unknown>; modern: Record<string, unknown>; stderr: string }> {
  const serve = { command: process.execPath, args: ['bin/toolsmith.js', 'serve', ...args], cwd: repoRoot };
  let stderr = '';
  const v1 = new ClientV1({ name: 'tasks-announce-v1', version: '1' });
  const v1Transport = new StdioClientTransportV1({ ...serve, env: { ...baseEnv, ...env }, stderr: 'pipe' });
  v1Transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await v1.connect(v1Transport);
  const legacy = (v1.getServerCapabilities() ?? {}) as Record<string, unknown>;
  await v1.close();
  const v2 = new ClientV2(
    { name: 'tasks-announce-v2', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await v2.connect(new StdioClientTransportV2({ ...serve, env: { ...baseEnv, ...env }, stderr: 'pipe' }));
  expect(v2.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  const modern = (v2.getServerCapabilities() ?? {}) as Record<string, unknown>;
  await v2.close();
  return { legacy, modern, stderr };
}

describe('toolsmith serve: tasks announced only when a tool can run as one', () => {
  it('without a task-capable tool: no tasks capability (2025) and no tasks extension (2026-07-28)', async () => {
    const { legacy, modern, stderr } = await announced([]);
    expect(legacy.tools).toBeDefined();
    expect(legacy.tasks).toBeUndefined();
    expect((legacy.extensions as Record<string, unknown> | undefined)?.[TASKS_EXTENSION_ID]).toBeUndefined();
    expect(modern.tools).toBeDefined();
    expect((modern.extensions as Record<string, unknown> | undefined)?.[TASKS_EXTENSION_ID]).toBeUndefined();
    expect(modern.tasks).toBeUndefined();
    expect(stderr).not.toMatch(/task store/);
  }, 30_000);

  it('with a task-capable tool: tasks announced in both eras, from the default memory store', async () => {
    const { legacy, modern } = await announced(['--entry', TASK_ENTRY]);
    expect(legacy.tasks).toMatchObject({ requests: { tools: { call: {} } }, cancel: {} });
    expect(modern.extensions).toMatchObject({ [TASKS_EXTENSION_ID]: {} });
  }, 30_000);

  it('a store named without a task-capable tool is opened, warned about, and announces nothing', async () => {
    const { legacy, modern, stderr } = await announced([], { TOOLSMITH_TASK_STORE: 'memory' });
    expect(legacy.tasks).toBeUndefined();
    expect((modern.extensions as Record<string, unknown> | undefined)?.[TASKS_EXTENSION_ID]).toBeUndefined();
    expect(stderr).toContain(
      'toolsmith serve: warning: TOOLSMITH_TASK_STORE names a task store (memory), but no tool has taskSupport: the server announces no tasks.',
    );
  }, 30_000);

  it('a bad store named without a task-capable tool stops the server at start, saying what is accepted', async () => {
    const child = spawn(process.execPath, ['bin/toolsmith.js', 'serve', '--task-store', 'postgres://db'], {
      cwd: repoRoot,
      env: baseEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("--task-store must be 'memory' or a Redis URL");
  }, 30_000);
});

describe('toolsmith serve over stdio: the task methods per era (child process)', () => {
  const serve = {
    command: process.execPath,
    args: ['bin/toolsmith.js', 'serve', '--entry', TASK_ENTRY],
    cwd: repoRoot,
    env: baseEnv,
  };

  it('2025-11-25 (v1 client): the task ends with notifications/tasks/status, tasks/list lists it, tasks/result answers it', async () => {
    const client = new ClientV1({ name: 'tasks-stdio-v1', version: '1' }, { capabilities: { tasks: {} } });
    await client.connect(new StdioClientTransportV1({ ...serve, stderr: 'pipe' }));
    try {
      expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {} });
      const heard: unknown[] = [];
      client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void heard.push(notification));
      const created = await client.request(
        { method: 'tools/call', params: { name: 'slow_report', arguments: { ms: 50, tag: 'e2e' }, task: {} } },
        CreateTaskResultSchema,
      );
      const { taskId } = created.task;
      const until = Date.now() + 10_000;
      while (heard.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).toHaveLength(1);
      expect(isSpecType.TaskStatusNotification(heard[0])).toBe(true);
      expect(heard[0]).toMatchObject({ method: 'notifications/tasks/status', params: { taskId, status: 'completed' } });
      const listed = await client.experimental.tasks.listTasks();
      expect(listed.tasks.map((task) => [task.taskId, task.status])).toEqual([[taskId, 'completed']]);
      const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(result.structuredContent).toMatchObject({ tag: 'e2e' });
    } finally {
      await client.close();
    }
  }, 30_000);

  it('2025-11-25 (v1 client): a task that asks goes input_required, the question reaches the client, the answer completes it', async () => {
    const client = new ClientV1(
      { name: 'tasks-stdio-ask', version: '1' },
      { capabilities: { tasks: {}, elicitation: {} } },
    );
    const statuses: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const taskId = (request.params._meta as Record<string, { taskId: string }>)[
        'io.modelcontextprotocol/related-task'
      ]!.taskId;
      statuses.push((await client.experimental.tasks.getTask(taskId)).status);
      return { action: 'accept', content: { choice: 'a' } };
    });
    await client.connect(new StdioClientTransportV1({ ...serve, stderr: 'pipe' }));
    try {
      const created = await client.request(
        { method: 'tools/call', params: { name: 'ask_choice', arguments: {}, task: {} } },
        CreateTaskResultSchema,
      );
      const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
      expect(result.structuredContent).toMatchObject({ picked: 'a' });
      expect(statuses).toEqual(['input_required']);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('2026-07-28: the extension alone is announced; tasks/list and tasks/result are -32601, tasks/get is served', async () => {
    const client = new ClientV2(
      { name: 'tasks-stdio-v2', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StdioClientTransportV2({ ...serve, stderr: 'pipe' }));
    try {
      expect(client.getServerCapabilities()?.extensions).toMatchObject({ [TASKS_EXTENSION_ID]: {} });
      expect(client.getServerCapabilities()).not.toHaveProperty('tasks');
    } finally {
      await client.close();
    }
    // The v2 client refuses to send the 2025-only methods on 2026-07-28: raw lines ask the server.
    const child = spawn(serve.command, serve.args, { cwd: repoRoot, env: baseEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION_ID]: {} } },
    };
    const asked: [string, Record<string, unknown>][] = [
      ['tasks/list', {}],
      ['tasks/result', { taskId: 'no-such-task' }],
      ['tasks/get', { taskId: 'no-such-task' }],
    ];
    asked.forEach(([method, params], id) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope } })}\n`),
    );
    const until = Date.now() + 10_000;
    while (out.trim().split('\n').length < 3 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGTERM');
    const answers = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; error?: { code: number; message: string } });
    answers.sort((x, y) => x.id - y.id);
    expect(answers.map((answer) => answer.error?.code)).toEqual([-32601, -32601, -32602]);
    expect(answers[2]?.error?.message).toContain("Task 'no-such-task' not found: it never existed");
  }, 30_000);
});
