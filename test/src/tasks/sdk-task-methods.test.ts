import {
  createMcpHandler,
  isSpecType,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  Server,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MemoryTaskStore,
  type TaskStore,
  TASKS_EXTENSION_ID,
  toCreateTaskResult,
  toGetTaskResult,
  toLegacyCreateTaskResult,
  toLegacyTask,
  toLegacyTaskPayload,
  waitForTaskEnd,
} from '../../../src/tasks/index.js';
import { jsonRpcAnswer, mcpRequest } from '../../helpers/mcp-request.js';

/**
 * The store behind the v2 SDK's `createMcpHandler` (2.4.0), the way the MCP server can wire it:
 * the task methods as custom methods (`setRequestHandler(method, { params }, handler)`, the SDK has
 * no task runtime), `tools/call` answering a task handle. Proves the store's wire shapes get through
 * the SDK in both eras, and pins down what the SDK demands (see the 2025 `content: []`).
 */

const TaskIdParams = z.object({ taskId: z.string() }).passthrough();

function notFound(store: TaskStore, taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, store.missing(taskId));
}

/** A server whose one tool, `slow`, runs as a task finishing after `finishMs`. */
function taskServer(store: TaskStore, finishMs: number): Server {
  const server = new Server(
    { name: 'tasks', version: '1' },
    {
      capabilities: {
        tools: {},
        extensions: { [TASKS_EXTENSION_ID]: {} },
        tasks: { requests: { tools: { call: {} } }, cancel: {} },
      } as never,
    },
  );
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'slow', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }],
  }));
  server.setRequestHandler('tools/call', async (request) => {
    const legacyTask = (request.params as { task?: { ttl?: number } }).task;
    const running = await store.create({
      toolName: request.params.name,
      ...(legacyTask?.ttl === undefined ? {} : { ttlMs: legacyTask.ttl }),
    });
    const timer = setTimeout(() => void running.complete({ content: [{ type: 'text', text: 'done' }] }), finishMs);
    running.signal.addEventListener('abort', () => clearTimeout(timer));
    if (legacyTask !== undefined) {
      // The SDK's 2025 tools/call result check refuses a body with `task` but no `content`.
      return { ...toLegacyCreateTaskResult(running.task), content: [] } as never;
    }
    return toCreateTaskResult(running.task) as never;
  });
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) => {
    const task = await store.get(params.taskId);
    if (task === undefined) throw notFound(store, params.taskId);
    return (ctx.mcpReq.envelope === undefined ? toLegacyTask(task) : toGetTaskResult(task)) as never;
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) => {
    const outcome = await store.cancel(params.taskId);
    if (!outcome.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, outcome.message);
    return (ctx.mcpReq.envelope === undefined ? toLegacyTask(outcome.task) : { resultType: 'complete' }) as never;
  });
  server.setRequestHandler('tasks/result', { params: TaskIdParams }, async (params, ctx) => {
    const task = await waitForTaskEnd(store, params.taskId, { intervalMs: 10, signal: ctx.mcpReq.signal });
    const payload = task === undefined ? undefined : toLegacyTaskPayload(task);
    if (payload === undefined) throw notFound(store, params.taskId);
    if ('error' in payload) throw new ProtocolError(payload.error.code, payload.error.message);
    return payload.result as never;
  });
  return server;
}

interface Rpc {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** Sends one JSON-RPC request in either era's dress and answers its response message. */
async function send(
  handler: ReturnType<typeof createMcpHandler>,
  era: '2026-07-28' | '2025-11-25',
  method: string,
  params: Record<string, unknown>,
): Promise<Rpc> {
  const request = mcpRequest(method, params, {
    version: era,
    clientCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
  });
  const response = await handler.fetch(new Request('http://localhost/mcp', { method: 'POST', ...request }));
  return jsonRpcAnswer<Rpc>(await response.text());
}

describe('the task store behind the v2 SDK (createMcpHandler)', () => {
  const stores: TaskStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  const handlerFor = (finishMs: number) => {
    const store = new MemoryTaskStore();
    stores.push(store);
    return createMcpHandler((() => taskServer(store, finishMs)) as never);
  };

  it('2026-07-28: discover names the extension, tools/call answers a task, tasks/get its result', async () => {
    const handler = handlerFor(30);
    const discover = await send(handler, '2026-07-28', 'server/discover', {});
    expect(discover.result?.capabilities).toMatchObject({ extensions: { [TASKS_EXTENSION_ID]: {} } });
    const created = await send(handler, '2026-07-28', 'tools/call', { name: 'slow', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result?.taskId as string;
    const working = await send(handler, '2026-07-28', 'tasks/get', { taskId });
    expect(working.result).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    await new Promise((resolve) => setTimeout(resolve, 80));
    const done = await send(handler, '2026-07-28', 'tasks/get', { taskId });
    expect(done.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
    const unknown = await send(handler, '2026-07-28', 'tasks/get', { taskId: 'nope' });
    expect(unknown.error).toMatchObject({ code: -32602 });
    expect(unknown.error?.message).toMatch(/^Task 'nope' not found: it never existed, it belongs to another caller/);
  });

  it('2026-07-28: tasks/cancel acknowledges, the task reads cancelled, a second cancel is an error', async () => {
    const handler = handlerFor(10_000);
    const created = await send(handler, '2026-07-28', 'tools/call', { name: 'slow', arguments: {} });
    const taskId = created.result?.taskId as string;
    expect((await send(handler, '2026-07-28', 'tasks/cancel', { taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    expect((await send(handler, '2026-07-28', 'tasks/get', { taskId })).result?.status).toBe('cancelled');
    expect((await send(handler, '2026-07-28', 'tasks/cancel', { taskId })).error?.message).toMatch(/already cancelled/);
  });

  it('2025-11-25: tools/call with params.task answers { task }, tasks/get the Task, tasks/result the CallToolResult', async () => {
    const handler = handlerFor(30);
    await send(handler, '2025-11-25', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { tasks: {} },
      clientInfo: { name: 'c', version: '1' },
    });
    const created = await send(handler, '2025-11-25', 'tools/call', {
      name: 'slow',
      arguments: {},
      task: { ttl: 60_000 },
    });
    expect(isSpecType.CreateTaskResult(created.result)).toBe(true);
    const task = created.result?.task as { taskId: string; ttl: number };
    expect(task.ttl).toBeGreaterThanOrEqual(60_000);
    expect(task.ttl).toBeLessThan(3_600_000);
    const got = await send(handler, '2025-11-25', 'tasks/get', { taskId: task.taskId });
    expect(isSpecType.GetTaskResult(got.result)).toBe(true);
    const result = await send(handler, '2025-11-25', 'tasks/result', { taskId: task.taskId });
    expect(result.result).toMatchObject({
      content: [{ type: 'text', text: 'done' }],
      _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } },
    });
  });
});
